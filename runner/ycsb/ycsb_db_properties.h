// The properties of a YCSB run that are not CoreWorkload's: YCSB's client
// properties, database properties, and those kvbench accepts but ignores.
// docs/ycsb.md lists every one; a property none of them names is an error.
//
// Client properties (YCSB 0.17 and YCSB-cpp):
//   measurementtype        hdrhistogram (YCSB's default), timeseries, basic
//                          (YCSB-cpp); with hdrhistogram given explicitly,
//                          .hlog and .hgrm files are written
//   hdrhistogram.fileoutput  true: .hlog and .hgrm files (false: none)
//   hdrhistogram.output.path prefix of those files
//   hdrhistogram.percentiles the percentiles printed (default 50,95,99)
//   timeseries.granularity the interval of the time series, in ms
//   exportfile             the summary goes to this file, not stdout
//   exporter               only site.ycsb.measurements.exporter.TextMeasurementsExporter
//   status, status.interval, label   -s status lines (status_reporter.h)
//   db, dbname, doload, dotransactions, dotransaction   read by `kvbench ycsb`
//   kvbench.dir            where `kvbench ycsb` keeps the engine's files
//   dataintegrity (false only), sleepafterload (0 only), limit.file (empty only)
// Database properties: any engine option (`lmdb.mapsize`, `kvbench engines -v`)
// goes to every engine that has it; YCSB-cpp's own names for its bindings'
// settings (`lmdb.nosync`, `leveldb.cache_size`, `rocksdb.dbname`...) map to
// kvbench's options by the table in ycsb_db_properties.cc, and a YCSB-cpp
// setting kvbench has no option for is accepted only at the value that means
// what kvbench does (the engine's default).
#pragma once

#include <string>

#include "common/status.h"
#include "runner/workload.h"
#include "runner/ycsb/ycsb_properties.h"

namespace kvbench::runner {

// Applies `props` (the properties CoreWorkload does not read) to `w`:
// w->ycsb_output, w->measurement, engine options (with their origins in
// w->field_origins), engine directories, w->ycsb_properties for those
// `kvbench ycsb` reads, and the ignored ones in w->ycsb_ignored.
// InvalidArgument "FILE:LINE: property 'NAME': ..." for an unknown property
// or a value kvbench cannot honour. `path` names the file of -p overrides.
Status ApplyYcsbOtherProperties(const Properties& props, const std::string& path, Workload* w);

}  // namespace kvbench::runner
