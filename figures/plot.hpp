// figures/plot.hpp — a figure as data (panels of series, reference lines and
// labels), drawn by gnuplot through gnuplot-iostream into PNG (pngcairo, for the
// README and the report) and SVG (for papers). Only plot.cpp includes
// gnuplot-iostream.h.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace figs {

struct Series {
  std::string label;                  // legend text; "" = no legend entry
  std::vector<double> x, y;
  std::vector<double> ylo, yhi;       // with == "yerrorbars": the bar ends
  std::string color = "#1f77b4";
  std::string with = "linespoints";   // linespoints | lines | points | yerrorbars | steps
  int pt = 7;                         // gnuplot point type
  double ps = 0.8;                    // point size
  int dt = 1;                         // dash type (1 = solid)
  double lw = 1.6;                    // line width
};

struct HLine {
  double y = 1;
  std::string label;                  // legend text
  std::string color = "#000000";
  int dt = 1;
  double lw = 1.2;
};

// A legend entry that draws nothing (explains a point shape used by marks).
struct KeyEntry {
  std::string label;
  int pt = 6;
  std::string color = "#555555";
};

struct Label {
  double x = 0, y = 0;                // graph coordinates (0..1)
  std::string text;
};

// A vertical dotted line at data coordinate x, with a small label at its top.
struct VLine {
  double x = 0;
  std::string label;
};

struct Panel {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::optional<std::pair<double, double>> xrange, yrange;
  std::vector<Series> series;
  std::vector<HLine> hlines;
  std::vector<KeyEntry> keys;
  std::vector<Label> labels;
  std::vector<VLine> vlines;
  std::string key = "top left";       // gnuplot "set key" placement ("below": under the axes)
  std::string xformat, yformat;       // tic formats ("" = gnuplot's)
  double xtic = 0;                    // x tic step (0 = gnuplot's)
  // Bar chart: one cluster per category, one bar per series (series[k].y[c] is the
  // bar of category c; NaN = no bar). x of the series is ignored.
  bool bars = false;
  std::vector<std::string> categories;
};

struct Figure {
  std::string name;                   // file stem: <out>/<name>.png and .svg
  std::string title;                  // over all panels
  std::vector<Panel> panels;
  int width = 900, height = 600;      // PNG pixels; the SVG uses the same size
  int layout_rows = 1;                // panels are laid out rows x ceil(n/rows)
};

struct Rendered {
  bool ok = false;
  std::string png, svg, error;
};

// Draws f into dir/<name>.png (and .svg when svg is true). Never throws: failure
// (gnuplot missing, a gnuplot error) comes back in error.
Rendered render(const Figure& f, const std::string& dir, bool svg);

// Whether a gnuplot with the pngcairo terminal can be run.
bool gnuplot_available(std::string* why);

}  // namespace figs
