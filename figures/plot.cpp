// figures/plot.cpp — Figure -> gnuplot script -> PNG + SVG, through gnuplot-iostream.
#include "plot.hpp"

#include <gnuplot-iostream.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>
#include <unistd.h>

namespace fs = std::filesystem;

namespace figs {
namespace {

// A gnuplot single-quoted string ('' is a quote inside).
std::string q(const std::string& s) {
  std::string o = "'";
  for (char c : s) {
    if (c == '\'') o += "''";
    else if (c == '\n') o += "\\n";
    else o += c;
  }
  return o + "'";
}

// A title as a gnuplot string expression, wrapped at spaces into lines that fit `avail_px`
// pixels at `pt` points: pngcairo draws a point as 4/3 pixel and DejaVu Sans averages 0.55 em
// a character (the model figures/check_layout.py tests the drawn SVGs with), so a long title
// is never cut off at the picture's edges. Lines are joined with "\n" (q() quotes each).
std::string wrapped(const std::string& s, double avail_px, double pt) {
  const auto chars = [](const std::string& t) {
    size_t n = 0;
    for (unsigned char c : t) n += (c & 0xC0) != 0x80;
    return n;
  };
  const size_t most = size_t(std::max(8.0, avail_px / (0.55 * 4.0 / 3.0 * pt)));
  if (chars(s) <= most) return q(s);
  std::vector<std::string> lines{""};
  size_t at = 0;
  while (at < s.size()) {
    size_t sp = s.find(' ', at);
    const std::string word = s.substr(at, sp == std::string::npos ? std::string::npos : sp - at);
    std::string& l = lines.back();
    if (!l.empty() && chars(l) + 1 + chars(word) > most) lines.push_back(word);
    else l += (l.empty() ? "" : " ") + word;
    if (sp == std::string::npos) break;
    at = sp + 1;
  }
  std::string o;
  for (const std::string& l : lines) o += (o.empty() ? "" : ".\"\\n\".") + q(l);
  return o;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "?";
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

// Keeps the points a panel can show (finite; positive on a log axis).
Series drawable(const Series& s, bool logx, bool logy) {
  Series o = s;
  o.x.clear(); o.y.clear(); o.ylo.clear(); o.yhi.clear();
  const bool bars = s.with == "yerrorbars";
  for (size_t k = 0; k < s.x.size() && k < s.y.size(); ++k) {
    const double x = s.x[k], y = s.y[k];
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    if ((logx && x <= 0) || (logy && y <= 0)) continue;
    o.x.push_back(x);
    o.y.push_back(y);
    if (bars) {
      o.ylo.push_back(k < s.ylo.size() && std::isfinite(s.ylo[k]) ? s.ylo[k] : y);
      o.yhi.push_back(k < s.yhi.size() && std::isfinite(s.yhi[k]) ? s.yhi[k] : y);
    }
  }
  return o;
}

std::string style(const Series& s) {
  std::ostringstream o;
  if (s.with == "yerrorbars") {
    o << "with yerrorbars lc rgb " << q(s.color) << " pt " << s.pt << " ps " << s.ps << " lw " << s.lw;
  } else if (s.with == "points") {
    o << "with points lc rgb " << q(s.color) << " pt " << s.pt << " ps " << s.ps;
  } else if (s.with == "lines" || s.with == "steps") {
    o << "with " << s.with << " lc rgb " << q(s.color) << " dt " << s.dt << " lw " << s.lw;
  } else {
    o << "with linespoints lc rgb " << q(s.color) << " pt " << s.pt << " ps " << s.ps << " dt " << s.dt
      << " lw " << s.lw;
  }
  o << (s.label.empty() ? " notitle" : " title " + q(s.label));
  return o.str();
}

// Datablocks for every panel (written once, used by both terminals) and the
// plotting commands (run once per terminal).
void build(const Figure& f, std::string& data, std::string& cmds) {
  std::ostringstream d, c;
  const size_t np = f.panels.size();
  const int rows = std::max(1, f.layout_rows);
  const int cols = int((np + size_t(rows) - 1) / size_t(rows));
  if (np > 1 || !f.title.empty())
    c << "set multiplot layout " << rows << "," << std::max(1, cols) << " title "
      << wrapped(f.title, f.width - 40.0, 13) << " font ',13'\n";
  for (size_t pi = 0; pi < np; ++pi) {
    const Panel& p = f.panels[pi];
    c << "unset logscale; unset label; unset arrow; set autoscale; unset xtics; unset ytics; set xtics; "
         "set ytics; set xtics norotate; unset style data; set style data lines; set format x '% h'; "
         "set format y '% h'; set grid back lc rgb '#dddddd' lw 1\n";
    c << "set title " << wrapped(p.title, double(f.width) / std::max(1, cols) - 40.0, 11) << " font ',11'\n";
    c << "set xlabel " << q(p.xlabel) << (p.key == "below" ? " offset 0,0.5" : "") << "\nset ylabel " << q(p.ylabel)
      << "\n";
    if (p.key == "below")
      c << "set key below Left reverse font ',8' spacing 1.0 samplen 2.5 height 1 nobox\n";
    else
      c << "set key " << p.key << " font ',8' spacing 1.0 samplen 2.5 box lc rgb '#bbbbbb' opaque\n";
    if (!p.xformat.empty()) c << "set format x " << q(p.xformat) << "\n";
    if (p.xtic > 0) c << "set xtics " << num(p.xtic) << "\n";
    if (!p.yformat.empty()) c << "set format y " << q(p.yformat) << "\n";
    if (p.logx) c << "set logscale x\n";
    if (p.logy) c << "set logscale y\n";
    if (p.xrange) c << "set xrange [" << num(p.xrange->first) << ":" << num(p.xrange->second) << "]\n";
    if (p.yrange) {
      c << "set yrange [" << num(p.yrange->first) << ":" << num(p.yrange->second) << "]\n";
    } else if (p.bars && p.logy) {
      // whole decades, with room below the smallest bar
      double lo = INFINITY, hi = 0;
      for (const Series& s0 : p.series)
        for (double v : s0.y)
          if (std::isfinite(v) && v > 0) { lo = std::min(lo, v); hi = std::max(hi, v); }
      for (const HLine& h : p.hlines)
        if (h.y > 0) { lo = std::min(lo, h.y); hi = std::max(hi, h.y); }
      if (std::isfinite(lo) && hi > 0)
        c << "set yrange [" << num(std::pow(10.0, std::floor(std::log10(lo) - 1e-9))) << ":"
          << num(std::pow(10.0, std::ceil(std::log10(hi) + 0.15))) << "]\n";
    } else if (!p.bars) {
      // pad the data (and the reference lines) by 6% so marks on the edge stay visible
      double lo = INFINITY, hi = -INFINITY;
      const auto take = [&](double v) {
        if (std::isfinite(v) && (!p.logy || v > 0)) { lo = std::min(lo, v); hi = std::max(hi, v); }
      };
      for (const Series& s0 : p.series) {
        const Series s = drawable(s0, p.logx, p.logy);
        for (double v : s.y) take(v);
        for (double v : s.ylo) take(v);
        for (double v : s.yhi) take(v);
      }
      for (const HLine& h : p.hlines) take(h.y);
      if (std::isfinite(lo) && hi > lo) {
        if (p.logy) { lo /= 1.5; hi *= 1.5; }
        else { const double pad = 0.06 * (hi - lo); lo -= pad; hi += pad; }
        c << "set yrange [" << num(lo) << ":" << num(hi) << "]\n";
      }
    }
    for (size_t k = 0; k < p.labels.size(); ++k)
      c << "set label " << (k + 1) << " " << q(p.labels[k].text) << " at graph " << num(p.labels[k].x) << ","
        << num(p.labels[k].y) << " font ',8' front\n";

    for (size_t k = 0; k < p.vlines.size(); ++k) {
      const VLine& v = p.vlines[k];
      c << "set arrow from first " << num(v.x) << ", graph 0 to first " << num(v.x)
        << ", graph 1 nohead dt 3 lw 1 lc rgb '#999999' back\n";
      if (!v.label.empty())
        c << "set label " << (100 + k) << " " << q(v.label) << " at first " << num(v.x)
          << ", graph 0.985 left offset 0.4,0 font ',8' tc rgb '#666666' front\n";
    }
    std::vector<std::string> items;
    if (p.bars) {
      const std::string name = "$p" + std::to_string(pi) + "bars";
      d << name << " << EOD\n";
      for (size_t ci = 0; ci < p.categories.size(); ++ci) {
        std::string cat = p.categories[ci];
        for (char& ch : cat)
          if (ch == '"') ch = '\'';
        d << '"' << cat << '"';
        for (const Series& s : p.series) d << " " << num(ci < s.y.size() ? s.y[ci] : NAN);
        d << "\n";
      }
      d << "EOD\n";
      c << "set style data histograms\nset style histogram clustered gap 1\n"
           "set style fill solid 0.85 border lc rgb '#333333'\nset boxwidth 0.9\n"
           "set xtics rotate by -35 left font ',9'\nset datafile missing '?'\n";
      for (size_t k = 0; k < p.series.size(); ++k) {
        const Series& s = p.series[k];
        items.push_back((k == 0 ? name : std::string("''")) + " using " + std::to_string(k + 2) +
                        (k == 0 ? ":xtic(1)" : "") + " lc rgb " + q(s.color) +
                        (s.label.empty() ? " notitle" : " title " + q(s.label)));
      }
    } else {
      for (size_t si = 0; si < p.series.size(); ++si) {
        const Series s = drawable(p.series[si], p.logx, p.logy);
        if (s.x.empty()) {
          if (!s.label.empty()) items.push_back("NaN " + style(s));  // keep the legend entry
          continue;
        }
        const std::string name = "$p" + std::to_string(pi) + "s" + std::to_string(si);
        d << name << " << EOD\n";
        for (size_t k = 0; k < s.x.size(); ++k) {
          d << num(s.x[k]) << " " << num(s.y[k]);
          if (s.with == "yerrorbars") d << " " << num(s.ylo[k]) << " " << num(s.yhi[k]);
          d << "\n";
        }
        d << "EOD\n";
        items.push_back(name + (s.with == "yerrorbars" ? " using 1:2:3:4 " : " using 1:2 ") + style(s));
      }
    }
    for (const HLine& h : p.hlines)
      items.push_back(num(h.y) + " with lines lc rgb " + q(h.color) + " dt " + std::to_string(h.dt) + " lw " +
                      num(h.lw) + (h.label.empty() ? " notitle" : " title " + q(h.label)));
    for (const KeyEntry& k : p.keys)
      items.push_back("NaN with points lc rgb " + q(k.color) + " pt " + std::to_string(k.pt) +
                      " ps 1.0 title " + q(k.label));
    if (items.empty()) items.push_back("NaN notitle");
    c << "plot ";
    for (size_t k = 0; k < items.size(); ++k) c << (k ? ", \\\n     " : "") << items[k];
    c << "\n";
    if (p.bars) c << "unset style data; set style data lines; set datafile missing NaN\n";
  }
  if (np > 1 || !f.title.empty()) c << "unset multiplot\n";
  data = d.str();
  cmds = c.str();
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

bool gnuplot_available(std::string* why) {
  const int rc = std::system("gnuplot -e \"set terminal pngcairo\" >/dev/null 2>&1");
  if (rc != 0 && why) *why = "cannot run 'gnuplot -e \"set terminal pngcairo\"' (is gnuplot with cairo installed?)";
  return rc == 0;
}

Rendered render(const Figure& f, const std::string& dir, bool svg) {
  Rendered r;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    r.error = "cannot create " + dir + ": " + ec.message();
    return r;
  }
  r.png = (fs::path(dir) / (f.name + ".png")).string();
  r.svg = svg ? (fs::path(dir) / (f.name + ".svg")).string() : "";
  fs::remove(r.png, ec);
  if (svg) fs::remove(r.svg, ec);

  std::string data, cmds;
  build(f, data, cmds);
  const std::string log =
      (fs::temp_directory_path() / ("tdmaps_figures_" + std::to_string(::getpid()) + "_" + f.name + ".log")).string();
  try {
    Gnuplot gp("gnuplot 2>'" + log + "'");
    gp << "set encoding utf8\n" << data;
    gp << "set terminal pngcairo size " << f.width << "," << f.height
       << " enhanced font 'DejaVu Sans,10' noenhanced background rgb 'white'\n";
    gp << "set output '" << r.png << "'\n" << cmds << "set output\n";
    if (svg) {
      gp << "set terminal svg size " << f.width << "," << f.height
         << " dynamic font 'DejaVu Sans,10' noenhanced background rgb 'white'\n";
      gp << "set output '" << r.svg << "'\n" << cmds << "set output\n";
    }
    gp << "exit\n";
  } catch (const std::exception& e) {
    r.error = std::string("gnuplot: ") + e.what();
    return r;
  }  // ~Gnuplot waits for gnuplot to finish
  const std::string messages = read_all(log);
  fs::remove(log, ec);
  const bool png_ok = fs::exists(r.png) && fs::file_size(r.png, ec) > 0;
  const bool svg_ok = !svg || (fs::exists(r.svg) && fs::file_size(r.svg, ec) > 0);
  if (messages.find("error") != std::string::npos || !png_ok || !svg_ok) {
    r.error = "gnuplot failed for " + f.name + (messages.empty() ? std::string(" (no output written)") : ": " + messages);
    // keep the script for debugging (outside the output folder)
    const fs::path script = fs::temp_directory_path() / ("tdmaps_figures_" + f.name + ".failed.gp");
    std::ofstream(script) << data << cmds;
    r.error += " (script: " + script.string() + ")";
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace figs
