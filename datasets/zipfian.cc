#include "datasets/zipfian.h"

#include <cmath>
#include <map>
#include <mutex>
#include <utility>

#include "datasets/fnv.h"

namespace kvbench::datasets {

namespace {

constexpr uint64_t kExactZetaLimit = 1ULL << 25;

// sum_{i=1..n} i^-theta by Euler-Maclaurin: the first terms exactly, the rest
// as the integral plus end corrections with B2 and B4; the next term is below
// 1e-17 for a start of 1000.
double EulerMaclaurinZeta(uint64_t n, double theta) {
  constexpr uint64_t kStart = 1000;
  const double sum_head = ZetaSum(0, kStart - 1, theta, 0.0);
  const double a = static_cast<double>(kStart);
  const double b = static_cast<double>(n);
  auto f = [theta](double x) { return std::pow(x, -theta); };
  auto f1 = [theta](double x) { return -theta * std::pow(x, -theta - 1); };
  auto f3 = [theta](double x) {
    return -theta * (theta + 1) * (theta + 2) * std::pow(x, -theta - 3);
  };
  double integral;
  if (std::abs(1.0 - theta) < 1e-12) {
    integral = std::log(b / a);
  } else {
    const double s = 1.0 - theta;
    integral = (std::expm1(s * std::log(b)) - std::expm1(s * std::log(a))) / s;
  }
  const double tail = integral + (f(a) + f(b)) / 2 + (f1(b) - f1(a)) / 12 - (f3(b) - f3(a)) / 720;
  return sum_head + tail;
}

}  // namespace

double ZetaSum(uint64_t st, uint64_t n, double theta, double initial_sum) {
  double sum = initial_sum;
  for (uint64_t i = st; i < n; ++i) sum += 1 / std::pow(static_cast<double>(i + 1), theta);
  return sum;
}

double Zeta(uint64_t n, double theta) {
  static std::mutex mu;
  static std::map<std::pair<uint64_t, double>, double> memo;
  std::lock_guard<std::mutex> lock(mu);
  auto it = memo.find({n, theta});
  if (it != memo.end()) return it->second;
  const double z = n <= kExactZetaLimit ? ZetaSum(0, n, theta, 0.0) : EulerMaclaurinZeta(n, theta);
  memo.emplace(std::make_pair(n, theta), z);
  return z;
}

ZipfianGenerator::ZipfianGenerator(uint64_t min, uint64_t max, double theta)
    : ZipfianGenerator(min, max, theta, Zeta(max - min + 1, theta)) {}

ZipfianGenerator::ZipfianGenerator(uint64_t min, uint64_t max, double theta, double zetan)
    : items_(max - min + 1),
      base_(min),
      theta_(theta),
      zeta2theta_(ZetaSum(0, 2, theta, 0.0)),
      alpha_(1.0 / (1.0 - theta)),
      zetan_(zetan),
      eta_((1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta)) /
           (1 - zeta2theta_ / zetan)),
      count_for_zeta_(items_) {}

uint64_t ZipfianGenerator::NextLong(uint64_t itemcount, double u) {
  if (itemcount > count_for_zeta_) {
    // More items than last time: extend zetan incrementally, as YCSB does.
    zetan_ = ZetaSum(count_for_zeta_, itemcount, theta_, zetan_);
    count_for_zeta_ = itemcount;
    eta_ =
        (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) / (1 - zeta2theta_ / zetan_);
  }
  return Draw(itemcount, u);
}

uint64_t ZipfianGenerator::Draw(uint64_t itemcount, double u) const {
  const double uz = u * zetan_;
  if (uz < 1.0) return base_;
  if (uz < 1.0 + std::pow(0.5, theta_)) return base_ + 1;
  return base_ + static_cast<uint64_t>(static_cast<double>(itemcount) *
                                       std::pow(eta_ * u - eta_ + 1, alpha_));
}

ScrambledZipfianGenerator::ScrambledZipfianGenerator(uint64_t min, uint64_t max, double theta)
    : min_(min),
      item_count_(max - min + 1),
      gen_(0, kScrambledZipfianItemCount, theta,
           theta == kZipfianConstant ? kScrambledZipfianZetan
                                     : Zeta(kScrambledZipfianItemCount + 1, theta)) {}

uint64_t ScrambledZipfianGenerator::Next(Rng* rng) {
  const uint64_t value = gen_.Next(rng);
  // YCSB: min + fnvhash64(value) % itemcount. fnvhash64 is non-negative except
  // for Long.MIN_VALUE (probability 2^-64), read here as unsigned.
  const uint64_t hash = static_cast<uint64_t>(YcsbFnvHash64(static_cast<int64_t>(value)));
  return min_ + hash % item_count_;
}

}  // namespace kvbench::datasets
