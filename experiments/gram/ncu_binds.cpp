// experiments/gram/ncu_binds.cpp — what an Nsight Compute profile says of a kernel, as rows of ncu_gram.csv (issue
// #36: "say plainly which targets were missed, and what binds each (ncu)"). Reads the raw page of ncu reports
// (`ncu --import R.ncu-rep --page raw --csv > R.csv`, one kernel each, sections SpeedOfLight, MemoryWorkloadAnalysis,
// WarpStateStats and SchedulerStats; of several launches, the longest: the timed size) and writes one row per report: the kernel's time
// under ncu; DRAM, L2, L1 and SM throughput as percentages of their peaks; the schedulers' issue activity; the
// cycles between a warp's instructions and the two largest stall reasons of them. It measures only: which unit
// binds is a rule of paper/claims (targets.cpp), beside the verdicts it explains.
//
// Usage: ncu_binds --out FILE [--commit C] [--gpu SLUG] KERNEL:OUTPUT:PRECISION:N:D=RAW.csv ...
// CPU only; bad input (an unreadable report, a label without its five fields, a report of no kernel) is one line and
// exit 2 before anything is written.
#include <results/csv.hpp>
#include <results/csv_file.hpp>
#include <results/layouts.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Report {
  std::string kernel, output, precision, N, d, path;
  std::map<std::string, std::string> value, unit;  // metric -> its value and unit (the raw page's second line)
  std::string device;
};

[[noreturn]] void bad(const std::string& s) {
  std::fprintf(stderr, "ncu_binds: %s\n", s.c_str());
  std::exit(2);
}

std::vector<std::string> fields(const std::string& s, char sep) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      v.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  v.push_back(cur);
  return v;
}

// The raw page: a header of metric names, a line of their units, then one line per profiled kernel (the first
// is read). Lines before the header (ncu's own "==PROF==" notes) are skipped.
Report read_report(const std::string& label, const std::string& path) {
  Report r;
  const std::vector<std::string> l = fields(label, ':');
  if (l.size() != 5) bad("label '" + label + "' is not KERNEL:OUTPUT:PRECISION:N:D");
  r.kernel = l[0], r.output = l[1], r.precision = l[2], r.N = l[3], r.d = l[4], r.path = path;
  std::ifstream f(path);
  if (!f) bad("cannot read " + path);
  std::string line;
  std::vector<std::string> head, units, row;
  while (std::getline(f, line)) {
    if (line.rfind("\"ID\"", 0) == 0) {
      head = results::split_csv(line);
      break;
    }
  }
  if (head.empty() || !std::getline(f, line)) bad(path + ": not an ncu raw page (no \"ID\" header)");
  units = results::split_csv(line);
  // one line per profiled launch: the longest is read (a report of several launches of one kernel, e.g. its
  // checks at small N and the timed size, is read at the timed size)
  size_t t_col = head.size();
  for (size_t i = 0; i < head.size(); ++i)
    if (head[i] == "gpu__time_duration.sum") t_col = i;
  double longest = -1;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] != '"') continue;
    const std::vector<std::string> cells = results::split_csv(line);
    double t = 0;
    if (t_col < cells.size()) {
      std::string digits;
      for (char c : cells[t_col])
        if (c != ',') digits += c;
      t = results::to_num(digits);
    }
    if (!(t > longest)) continue;
    longest = t;
    row = cells;
  }
  if (row.empty()) bad(path + ": the report holds no kernel");
  for (size_t i = 0; i < head.size() && i < row.size(); ++i) {
    r.value[head[i]] = row[i];
    r.unit[head[i]] = i < units.size() ? units[i] : "";
  }
  r.device = r.value.count("device__attribute_display_name") ? r.value["device__attribute_display_name"] : r.value["Device"];
  return r;
}

double num(const Report& r, const std::string& metric) {
  const auto it = r.value.find(metric);
  if (it == r.value.end()) return NAN;
  std::string s;
  for (char c : it->second)
    if (c != ',') s += c;  // ncu prints thousands separators in some versions
  return results::to_num(s);
}
// DRAM throughput in % of its peak (ncu 2025: gpu__dram_throughput; older: dram__throughput).
double dram_pct(const Report& r) {
  const double v = num(r, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed");
  return std::isfinite(v) ? v : num(r, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
}
// gpu__time_duration.sum in ms, whatever unit the report chose.
double duration_ms(const Report& r) {
  const double v = num(r, "gpu__time_duration.sum");
  const std::string u = r.unit.count("gpu__time_duration.sum") ? r.unit.at("gpu__time_duration.sum") : "";
  const double to_ms = u == "nsecond" || u == "ns" ? 1e-6 : u == "usecond" || u == "us" ? 1e-3 : u == "msecond" || u == "ms" ? 1.0
                       : u == "second" || u == "s" ? 1e3 : NAN;
  return v * to_ms;
}
// The stall reasons (WarpStateStats: cycles a warp spends stalled per instruction issued, by reason), largest first.
std::vector<std::pair<double, std::string>> stalls(const Report& r) {
  const std::string pre = "smsp__average_warps_issue_stalled_", post = "_per_issue_active.ratio";
  std::vector<std::pair<double, std::string>> v;
  for (const auto& [k, s] : r.value) {
    if (k.rfind(pre, 0) != 0 || k.size() <= pre.size() + post.size() || k.compare(k.size() - post.size(), post.size(), post) != 0)
      continue;
    const std::string reason = k.substr(pre.size(), k.size() - pre.size() - post.size());
    if (reason == "selected") continue;  // issuing, not a stall
    const double c = num(r, k);
    if (std::isfinite(c)) v.emplace_back(c, reason);
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, commit, gpu;
  std::vector<std::pair<std::string, std::string>> inputs;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    if ((s == "--out" || s == "--commit" || s == "--gpu") && a + 1 < argc) {
      (s == "--out" ? out : s == "--commit" ? commit : gpu) = argv[++a];
    } else if (s.find('=') != std::string::npos && s.rfind("-", 0) != 0) {
      inputs.emplace_back(s.substr(0, s.find('=')), s.substr(s.find('=') + 1));
    } else {
      bad("usage: ncu_binds --out FILE [--commit C] [--gpu SLUG] KERNEL:OUTPUT:PRECISION:N:D=RAW.csv ...");
    }
  }
  if (out.empty() || inputs.empty()) bad("usage: ncu_binds --out FILE [--commit C] [--gpu SLUG] KERNEL:OUTPUT:PRECISION:N:D=RAW.csv ...");
  std::vector<Report> reports;
  for (const auto& [label, path] : inputs) reports.push_back(read_report(label, path));

  std::string files;
  for (const Report& r : reports) files += std::string(files.empty() ? "" : ";") + r.path.substr(r.path.rfind('/') + 1);
  results::CsvFile f(out,
                     "{\"program\":\"ncu_binds\",\"date_utc\":\"" + results::utc_now() + "\",\"commit\":\"" + commit +
                         "\",\"gpu\":\"" + gpu + "\",\"device\":\"" + reports.front().device + "\",\"reports\":\"" + files + "\"}",
                     results::layout::ncu_gram);
  for (const Report& r : reports) {
    const std::vector<std::pair<double, std::string>> st = stalls(r);
    results::RowOf<results::layout::ncu_gram> row;
    row.set(TD_COL("kernel"), r.kernel).set(TD_COL("output"), r.output).set(TD_COL("precision"), r.precision).set(TD_COL("N"), r.N).set(TD_COL("d"), r.d);
    row.set(TD_COL("ncu_ms"), results::sig(duration_ms(r), 5));
    row.set(TD_COL("dram_pct"), results::fixed(dram_pct(r), 2));
    row.set(TD_COL("l2_pct"), results::fixed(num(r, "lts__throughput.avg.pct_of_peak_sustained_elapsed"), 2));
    row.set(TD_COL("l1_pct"), results::fixed(num(r, "l1tex__throughput.avg.pct_of_peak_sustained_active"), 2));
    row.set(TD_COL("sm_pct"), results::fixed(num(r, "sm__throughput.avg.pct_of_peak_sustained_elapsed"), 2));
    row.set(TD_COL("issue_active_pct"), results::fixed(num(r, "smsp__issue_active.avg.pct_of_peak_sustained_active"), 2));
    row.set(TD_COL("warp_cycles_per_issue"), results::fixed(num(r, "smsp__average_warp_latency_per_inst_issued.ratio"), 2));
    row.set(TD_COL("stall_1"), st.size() > 0 ? st[0].second : "").set(TD_COL("stall_1_cycles"), results::fixed(st.size() > 0 ? st[0].first : NAN, 2));
    row.set(TD_COL("stall_2"), st.size() > 1 ? st[1].second : "").set(TD_COL("stall_2_cycles"), results::fixed(st.size() > 1 ? st[1].first : NAN, 2));
    f.row(row);
    std::fprintf(stderr, "%s %s N=%s d=%s: %.3f ms, DRAM %.0f %%, L2 %.0f %%, SM %.0f %%, issue %.0f %%, stall %s\n",
                 r.kernel.c_str(), r.output.c_str(), r.N.c_str(), r.d.c_str(), duration_ms(r),
                 dram_pct(r),
                 num(r, "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
                 num(r, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                 num(r, "smsp__issue_active.avg.pct_of_peak_sustained_active"), st.empty() ? "?" : st[0].second.c_str());
  }
  return 0;
}
