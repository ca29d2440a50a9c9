// src/support/bench/args.hpp — the command line of every experiment program: one list grammar,
// one error path. Host only (no CUDA), so test_bench_args checks it without a GPU.
//
// Grammar (every program, every list option):
//   --opt a,b,c          items separated by commas; the option may be repeated
//   --N 1024:30720:1024  a range A:B:STEP (A, A+STEP, ..., <= B) wherever sizes are taken
// Bad input: `<program>: <what is wrong>` on one line of stderr and exit status 2,
// before any CUDA call (Cli::parse, Cli::fail).
// Names every program spells alike: --N (short -N), --rho, --bucket-width, --verify-max,
// and `both` wherever a choice has two values; --version and --help (defaults, exit codes).
#pragma once
#include <tdmaps/config.hpp>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tdmaps::bench {

namespace po = boost::program_options;

// Exit codes of every experiment program (README.md beside this file; each program's --help).
constexpr int exit_bad_input = 2;
constexpr int exit_no_gpu = 3;    // no NVIDIA driver or GPU (gpu.cuh require_gpu_or_exit)
constexpr int exit_skipped = 77;  // no GPU with --skip-if-no-gpu (meson's "skipped")
// Where --version finds the commit the program was built from: gpu.cuh sets it to
// experiments/commit.cpp.in's tdmaps_commit_id (host-only programs and tests leave it unset).
using CommitFn = const char* (*)();
inline CommitFn& commit_source() {
  static CommitFn f = nullptr;
  return f;
}
inline const char* exit_codes_help() {
  return "Exit codes: 0 done; 1 a check failed; 2 bad input (one line, before any GPU work); 3 no NVIDIA "
         "driver or GPU (one line: the cause and the next step); 77 no GPU with --skip-if-no-gpu (meson's skip).";
}

// Bad command-line input: Cli::parse / Cli::check print what() on one line and exit 2.
struct bad_input : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "a,b" "c" -> {"a", "b", "c"}; blanks around items are dropped, empty items refused.
inline std::vector<std::string> split_list(const std::vector<std::string>& args, const std::string& what) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    size_t s = 0;
    for (;;) {
      const size_t e = a.find(',', s);
      std::string item = a.substr(s, e == std::string::npos ? std::string::npos : e - s);
      const size_t b = item.find_first_not_of(" \t"), l = item.find_last_not_of(" \t");
      item = b == std::string::npos ? "" : item.substr(b, l - b + 1);
      if (item.empty()) throw bad_input(what + ": empty item in '" + a + "'");
      out.push_back(item);
      if (e == std::string::npos) break;
      s = e + 1;
    }
  }
  return out;
}

// A whole-string integer.
inline long long parse_integer(const std::string& s, const std::string& what) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) throw bad_input(what + ": '" + s + "' is not an integer");
  return v;
}

// Integers from items "A" and ranges "A:B:STEP", each in lo..hi; repeats dropped, order kept.
inline std::vector<i64> parse_ints(const std::vector<std::string>& args, const std::string& what, i64 lo, i64 hi) {
  std::vector<i64> out;
  const auto add = [&](long long v, const std::string& item) {
    if (v < lo || v > hi)
      throw bad_input(what + ": " + item + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    if (std::find(out.begin(), out.end(), i64(v)) == out.end()) out.push_back(i64(v));
  };
  for (const std::string& item : split_list(args, what)) {
    const size_t c1 = item.find(':');
    if (c1 == std::string::npos) {
      add(parse_integer(item, what), item);
      continue;
    }
    const size_t c2 = item.find(':', c1 + 1);
    if (c2 == std::string::npos) throw bad_input(what + ": range '" + item + "' must be A:B:STEP");
    const long long a = parse_integer(item.substr(0, c1), what), b = parse_integer(item.substr(c1 + 1, c2 - c1 - 1), what),
                    st = parse_integer(item.substr(c2 + 1), what);
    if (st < 1 || a > b) throw bad_input(what + ": range '" + item + "' needs A <= B and STEP >= 1");
    if ((b - a) / st > 100000) throw bad_input(what + ": range '" + item + "' has too many values");
    for (long long v = a; v <= b; v += st) add(v, item);
  }
  if (out.empty()) throw bad_input(what + ": no value given");
  return out;
}
inline std::vector<int> parse_small_ints(const std::vector<std::string>& args, const std::string& what, int lo, int hi) {
  std::vector<int> out;
  for (i64 v : parse_ints(args, what, lo, hi)) out.push_back(int(v));
  return out;
}

// Names from a closed set (`known`, in the order the error message lists them); repeats
// dropped, order kept.
inline std::vector<std::string> parse_names(const std::vector<std::string>& args, const std::string& what,
                                            const std::vector<std::string>& known) {
  std::vector<std::string> out;
  for (const std::string& m : split_list(args, what)) {
    if (std::find(known.begin(), known.end(), m) == known.end()) {
      std::string all;
      for (const std::string& k : known) all += (all.empty() ? "" : ", ") + k;
      throw bad_input(what + ": unknown name '" + m + "' (known: " + all + ")");
    }
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  if (out.empty()) throw bad_input(what + ": no name given");
  return out;
}
// Names from `available` (what this experiment runs); a name of `elsewhere` (known to
// tdmaps, not run here) gets its own message, apart from a name nobody knows.
inline std::vector<std::string> parse_available(const std::vector<std::string>& args, const std::string& what,
                                                const std::vector<std::string>& available,
                                                const std::vector<std::string>& elsewhere, const std::string& program) {
  for (const std::string& m : split_list(args, what))
    if (std::find(available.begin(), available.end(), m) == available.end() &&
        std::find(elsewhere.begin(), elsewhere.end(), m) != elsewhere.end()) {
      std::string all;
      for (const std::string& k : available) all += (all.empty() ? "" : ", ") + k;
      throw bad_input(what + ": '" + m + "' is a map of tdmaps but not available in " + program + " (available: " + all + ")");
    }
  return parse_names(args, what, available);
}
// One name from a closed set.
inline std::string parse_choice(const std::string& v, const std::string& what, const std::vector<std::string>& known) {
  return parse_names({v}, what, known).front();
}

// "--a 1 --b x" from argv, for the metadata line.
inline std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 1; i < argc; ++i) s += (i > 1 ? " " : "") + std::string(argv[i]);
  return s;
}

// Where a program writes when no --out is given: a run's own tree, never the committed
// results (experiments/results/<gpu>/, made from a run by experiments/promote_results.sh).
inline const char* default_results_dir() { return "experiments/results/local"; }

// What every experiment program takes besides its own options.
struct RunOptions {
  std::string out = default_results_dir();  // results go to <out>/<gpu_slug>/
  int reps = 20;                            // timed launches per variant and point
  int warmup = 3;                           // untimed launches per variant first
  int min_reps = 5;                         // the budget never cuts reps below this
  double budget_s = 0;                      // seconds of timed launches of the whole run (0: none)
  bool quick = false;                       // the short sweep of `make figures`
  bool skip_if_no_gpu = false;              // exit 77 (meson: skipped) without a GPU
  bool allow_inexact = false;               // time float maps past their exact range (exact=0 rows)
  double max_minutes = 60;                  // refuse a run predicted to take longer (predict.hpp)
  bool predict_only = false;                // print the prediction and stop (exit 0), before any CUDA call
  // A program's defaults.
  static RunOptions with(int reps, int warmup, int min_reps, double budget_s) {
    RunOptions r;
    r.reps = reps;
    r.warmup = warmup;
    r.min_reps = min_reps;
    r.budget_s = budget_s;
    return r;
  }
};

// The options parser every experiment program uses (Boost.Program_options).
class Cli {
 public:
  Cli(std::string program, const std::string& caption) : program_(std::move(program)), desc_(caption) {
    desc_.add_options()("help,h", "show this help (every default, the exit codes)")("version", "print the version and stop");
  }
  const std::string& program() const { return program_; }
  po::options_description_easy_init add() { return desc_.add_options(); }
  // The shared options, with this program's defaults in `r`. `inexact` adds --allow-inexact.
  void add_run_options(RunOptions& r, bool inexact = true) {
    add()("out", po::value(&r.out)->default_value(r.out), "results folder (files go to <out>/<gpu_slug>/)")
        ("reps", po::value(&r.reps)->default_value(r.reps), "timed launches per variant and point")
        ("warmup", po::value(&r.warmup)->default_value(r.warmup), "untimed launches per variant first")
        ("min-reps", po::value(&r.min_reps)->default_value(r.min_reps), "the time budget never cuts reps below this")
        ("budget-s", po::value(&r.budget_s)->default_value(r.budget_s),
         "seconds of timed launches for the whole run; each point gets an equal share of what is left and its "
         "reps shrink to fit, never below --min-reps (the count run is in each row); 0 = no budget")
        ("quick", po::bool_switch(&r.quick), "the short sweep of make figures")
        ("skip-if-no-gpu", po::bool_switch(&r.skip_if_no_gpu), "exit 77 (meson's skip code) when there is no GPU (else exit 3)")
        ("max-minutes", po::value(&r.max_minutes)->default_value(r.max_minutes),
         "refuse, before any work, a run predicted to take longer (GPU runs and CPU references; bench/predict.hpp)")
        ("predict-only", po::bool_switch(&r.predict_only),
         "print the run's predicted time (or its refusal) and stop, before any CUDA call");
    if (inexact)
      add()("allow-inexact", po::bool_switch(&r.allow_inexact),
            "also time float maps past their proven exact range (rows get exact=0)");
    run_ = &r;
  }
  // Options several programs share, one declaration each (#28: the same names everywhere):
  // --N, the point counts (comma list and/or ranges A:B:STEP; `default_text` names this program's
  // default sweep); --seed, the point generator's seed; --verify-max, the N of the check against
  // the CPU (or float64) before any timing.
  void add_points(std::vector<std::string>& n_args, const std::string& default_text) {
    add()("N", po::value(&n_args)->composing(), ("point counts: comma list and/or ranges A:B:STEP (default " + default_text + ")").c_str());
  }
  template <class Seed>
  void add_seed(Seed& seed) {
    add()("seed", po::value(&seed)->default_value(seed), "point generator seed");
  }
  void add_verify_max(long long& n, const std::string& what) {
    add()("verify-max", po::value(&n)->default_value(n), ("N of the check against " + what + " before any timing").c_str());
  }
  // Old spellings of the shared names: refused with the new name (never silently taken).
  void renamed(const std::string& old_name, const std::string& new_name) { renamed_.push_back({old_name, new_name}); }
  // Parses argv: --help prints and exits 0; any error is one line and exit 2. `-N` is --N's
  // short form in every program that has --N. Positional arguments are refused.
  void parse(int argc, char** argv) {
    std::vector<std::string> args;
    const bool has_N = desc_.find_nothrow("N", false) != nullptr;
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (has_N && a == "-N") a = "--N";
      else if (has_N && a.rfind("-N", 0) == 0 && a.size() > 2 && a[2] != '-') a = "--N=" + a.substr(2 + (a[2] == '='));
      for (const auto& r : renamed_)
        if (a == "--" + r.first || a.rfind("--" + r.first + "=", 0) == 0) fail("--" + r.first + " is now --" + r.second);
      args.push_back(a);
    }
    try {
      const po::parsed_options parsed = po::command_line_parser(args).options(desc_).run();
      for (const std::string& extra : po::collect_unrecognized(parsed.options, po::include_positional))
        fail("unexpected argument '" + extra + "' (options start with --; see --help)");
      po::store(parsed, vm_);
      if (vm_.count("help")) {
        std::cout << desc_ << "\n" << exit_codes_help() << "\n";
        std::exit(0);
      }
      if (vm_.count("version")) {
        const char* c = commit_source() ? commit_source()() : nullptr;
        std::printf("%s (tdmaps, commit %s)\n", program_.c_str(), c && *c ? c : "unknown");
        std::exit(0);
      }
      po::notify(vm_);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    if (run_) {
      if (run_->reps < 1 || run_->reps > 100000) fail("--reps must be in 1..100000");
      if (run_->warmup < 0 || run_->warmup > 1000) fail("--warmup must be in 0..1000");
      if (run_->min_reps < 1) fail("--min-reps must be >= 1");
      if (!(run_->budget_s >= 0)) fail("--budget-s must be >= 0");
      if (!(run_->max_minutes > 0)) fail("--max-minutes must be > 0");
      run_->min_reps = std::min(run_->min_reps, run_->reps);
    }
  }
  // Runs the program's own checks; a bad_input they throw is one line and exit 2.
  template <class F>
  void check(F&& f) {
    try {
      f();
    } catch (const bad_input& e) {
      fail(e.what());
    }
  }
  bool given(const char* name) const { return vm_.count(name) && !vm_[name].defaulted(); }
  // --quick (make figures' short sweep) and option `name` not given: the program puts its quick default there.
  bool quick_unset(const char* name) const { return run_ && run_->quick && !given(name); }
  [[noreturn]] void fail(const std::string& msg) const {
    std::fprintf(stderr, "%s: %s\n", program_.c_str(), msg.c_str());
    std::exit(exit_bad_input);
  }

 private:
  std::string program_;
  po::options_description desc_;
  po::variables_map vm_;
  RunOptions* run_ = nullptr;
  std::vector<std::pair<std::string, std::string>> renamed_;
};

}  // namespace tdmaps::bench
