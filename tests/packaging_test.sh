#!/usr/bin/env bash
# The Debian package, as a user gets it (ctest: debian_package):
#  1. `cpack -G DEB` on the build folder, into a temporary folder (cpack
#     builds nothing: it packages what building `all` made);
#  2. its control fields (`dpkg-deb -I`): Package, Version (the project's),
#     Architecture (dpkg's), a Depends computed by dpkg-shlibdeps;
#  3. its files (`dpkg-deb -c`): kvbench, kvbench-powerloss, the SDK's headers
#     and CMake package, the man page kvbench(1), the bash completion;
#  4. extracted (`dpkg-deb -x`): the binary runs, the man page renders with
#     every command in it, and the completion completes `kvbench ru` to `run`,
#     options, choices and engine names.
# Usage: packaging_test.sh BUILD_DIR PROJECT_VERSION
set -uo pipefail
build=$(cd "$1" && pwd)
version=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/kvbench-deb-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" > /dev/null || { echo "FAIL: no $tool (scripts/install-deps.sh)" >&2; exit 1; }
done

# 1. The package. -B keeps cpack's staging folder and the .deb out of build/.
(cd "$build" && cpack -G DEB -B "$work/out") > "$work/cpack.log" 2>&1 || {
  cat "$work/cpack.log" >&2
  echo "FAIL: cpack -G DEB" >&2
  exit 1
}
arch=$(dpkg --print-architecture)
deb=$work/out/kvbench_${version}_${arch}.deb
[ -f "$deb" ] || { ls -R "$work/out" >&2; echo "FAIL: no $deb" >&2; exit 1; }
echo "package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"

# 2. Control fields.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = kvbench ] || fail "Package: '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version: '$(field Version)', expected $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: '$(field Architecture)'"
# The Maintainer is the configured KVBENCH_PACKAGE_MAINTAINER (cmake/KvbenchPackage.cmake), as "Name <email>".
maintainer=$(sed -n 's/^KVBENCH_PACKAGE_MAINTAINER:STRING=//p' "$build/CMakeCache.txt")
[ -n "$maintainer" ] || fail "no KVBENCH_PACKAGE_MAINTAINER in $build/CMakeCache.txt"
[ "$(field Maintainer)" = "$maintainer" ] ||
  fail "Maintainer: '$(field Maintainer)', expected KVBENCH_PACKAGE_MAINTAINER '$maintainer'"
grep -Eq '^[^<>]+ <[^<> ]+@[^<> ]+>$' <<<"$(field Maintainer)" ||
  fail "Maintainer is not 'Name <email>': '$(field Maintainer)'"
grep -q 'kvbench\.invalid' <<<"$(field Maintainer)" && fail "Maintainer is the old placeholder"
[ -n "$(field Section)" ] || fail "no Section"
depends=$(field Depends)
echo "Depends: $depends"
# dpkg-shlibdeps names libc6 for any binary, and fmt for kvbench (it is not header-only in Debian).
grep -q 'libc6 (>= ' <<<"$depends" || fail "Depends lacks a versioned libc6: '$depends'"
grep -q 'libfmt' <<<"$depends" || fail "Depends lacks libfmt: '$depends'"
grep -q 'libfuse3' <<<"$depends" || fail "Depends lacks libfuse3 (kvbench-powerloss): '$depends'"
description=$(field Description)
grep -q '^comparative benchmarks' <<<"$description" || fail "Description: '$description'"
dpkg-deb -I "$deb" > "$work/info" || fail "dpkg-deb -I: exit $?"
grep -q '^ Package: kvbench$' "$work/info" || fail "dpkg-deb -I shows no Package line"

# 3. Files. The SDK's CMake folder is lib/cmake/kvbench, or lib/<triplet>/cmake/kvbench.
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's#^\./#/#' > "$work/files"
has() { grep -Eq "^$1\$" "$work/files" || fail "not in the package: $1"; }
has /usr/bin/kvbench
has /usr/bin/kvbench-powerloss
has /usr/include/kvbench/plugin\\.h
has /usr/include/kvbench/plugin_cpp\\.h
has '/usr/lib/([a-z0-9_-]+/)?cmake/kvbench/kvbenchConfig\.cmake'
has '/usr/lib/([a-z0-9_-]+/)?cmake/kvbench/kvbenchConfigVersion\.cmake'
has '/usr/lib/([a-z0-9_-]+/)?cmake/kvbench/kvbenchTargets\.cmake'
has '/usr/lib/([a-z0-9_-]+/)?cmake/kvbench/KvbenchPlugin\.cmake'
has /usr/share/man/man1/kvbench\\.1\\.gz
has /usr/share/bash-completion/completions/kvbench
grep -q '^/usr/share/man/man1/kvbench' "$work/files" ||
  echo "(the man page and the completion are the target kvbench_cli_docs, part of all)" >&2
# Nothing outside /usr, nothing from the build or the source tree.
outside=$(grep -Ev '^/(usr/.*)?$' "$work/files")
[ -z "$outside" ] || fail "files outside /usr: $(head -3 <<<"$outside")"
dpkg-deb -c "$deb" | awk '$2 != "root/root" { bad = 1 } END { exit bad }' ||
  fail "files not owned by root/root"

# 4. Extracted.
root=$work/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
kvbench=$root/usr/bin/kvbench
out=$("$kvbench" --version 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "extracted kvbench --version: exit $rc: $out"
grep -q "^kvbench $version" <<<"$out" || fail "kvbench --version says: $(head -1 <<<"$out")"
"$kvbench" engines > "$work/engines" 2>&1 || fail "extracted kvbench engines: exit $?"
grep -q '^stdmap ' "$work/engines" || fail "extracted kvbench engines lists no stdmap"

# The man page renders without warnings, with its sections and every command
# the binary has (generated from it, so a new command cannot be missing).
man=$root/usr/share/man/man1/kvbench.1.gz
check_man_page() {
  gzip -t "$man" || fail "the man page is not gzip-compressed"
  if command -v man > /dev/null; then
    MANWIDTH=100 man -l "$man" > "$work/man.txt" 2> "$work/man.err" || fail "man -l: exit $?"
  else
    zcat "$man" | groff -man -Tutf8 > "$work/man.txt" 2> "$work/man.err" || fail "groff: exit $?"
  fi
  zcat "$man" | groff -man -Tutf8 -ww -z > "$work/groff.err" 2>&1
  [ ! -s "$work/groff.err" ] || fail "groff warns about the man page: $(head -3 "$work/groff.err")"
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS ENVIRONMENT FILES 'EXIT STATUS' 'SEE ALSO'; do
    grep -q "^$section\$" "$work/man.txt" || fail "the man page has no $section section"
  done
  grep -q '^ *kvbench - comparative benchmarks' "$work/man.txt" || fail "the man page's NAME line"
  commands=$("$kvbench" help --json |
    python3 -c 'import json, sys; print(" ".join(c["name"] for c in json.load(sys.stdin)["commands"]))')
  [ -n "$commands" ] || fail "kvbench help --json lists no commands"
  for c in $commands; do
    grep -Eq "^ +kvbench $c( |\$)" "$work/man.txt" || fail "the man page has no section for '$c'"
  done
  grep -Eq '^ +--engines TEXT$' "$work/man.txt" || fail "the man page lacks run's --engines"
  grep -Eq -- '--format TEXT$' "$work/man.txt" || fail "the man page lacks report's --format"
  # man justifies its lines, so a space between words may come out doubled.
  grep -Eq '^ +2 +Bad +input' "$work/man.txt" || fail "EXIT STATUS lacks 2 (bad input)"
  grep -Eq '^ +130 ' "$work/man.txt" || fail "EXIT STATUS lacks 130"
}
[ -f "$man" ] && check_man_page  # its absence is reported above

# The completion: loads in a plain bash (no bash-completion package needed),
# registers for kvbench, completes commands, options, choices and engines
# (from the extracted binary, which COMP_WORDS[0] names).
completion=$root/usr/share/bash-completion/completions/kvbench
cat > "$work/complete.sh" <<'EOF'
source "$1" || exit 3
complete -p kvbench || exit 4
kv=$2
try() {  # expected words...
  COMP_WORDS=("$kv" "${WORDS[@]}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="${COMP_WORDS[*]}"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _kvbench
  local got=" ${COMPREPLY[*]} " w
  for w in "$@"; do
    [[ $got == *" $w "* ]] || { echo "'kvbench ${WORDS[*]}<TAB>' gives '${COMPREPLY[*]}', not '$w'"; return 1; }
  done
}
rc=0
WORDS=(ru); try run || rc=1
WORDS=(ru); [ "${#COMPREPLY[@]}" -eq 1 ] || { echo "'kvbench ru<TAB>': ${COMPREPLY[*]}"; rc=1; }
WORDS=(his); try history || rc=1
WORDS=(history ''); try add list trend check || rc=1
WORDS=(run --eng); try --engines || rc=1
WORDS=(run --engines st); try stdmap || rc=1
WORDS=(run --engines sqlite,st); try sqlite,stdmap || rc=1
WORDS=(report --format ''); try md html csv || rc=1
WORDS=(conformance std); try stdmap || rc=1
WORDS=(history trend --fig); try --figure || rc=1
exit $rc
EOF
check_completion() {
  out=$(bash --norc --noprofile "$work/complete.sh" "$completion" "$kvbench" 2>&1)
  rc=$?
  [ $rc -eq 0 ] || fail "bash completion (exit $rc): $out"
  grep -q '^complete -F _kvbench kvbench$' <<<"$out" || fail "complete -p kvbench: $out"

  # Workload files for `run`: TOML files complete from the current folder.
  mkdir -p "$work/cwd/sub" && touch "$work/cwd/quick.toml" "$work/cwd/notes.txt"
  out=$(cd "$work/cwd" && bash --norc --noprofile -c '
    source "$1"; COMP_WORDS=(kvbench run q); COMP_CWORD=2; _kvbench; echo "${COMPREPLY[*]}"' \
    _ "$completion" 2>&1)
  [ "$out" = quick.toml ] || fail "'kvbench run q<TAB>' gives '$out', not quick.toml"
}
[ -f "$completion" ] && check_completion  # its absence is reported above

[ $failures -eq 0 ] && echo "Debian package: all checks passed"
exit $((failures > 0))
