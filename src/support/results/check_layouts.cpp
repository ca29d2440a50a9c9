// src/support/results/check_layouts.cpp — every results CSV given on the command line has the header
// its layout declares (src/support/results/layouts.hpp); a file without a declared layout is an error
// too, so that a new CSV gets its layout. Used by the drift test (paper/drift_test.sh).
//   check_layouts FILE...     exit 0 when all agree, 1 with one line per difference
//   check_layouts --header F  prints the header declared for file name F (exit 1: none declared); the
//                             test peer_headers compares a Python writer's header with it
#include "csv.hpp"
#include "layouts.hpp"

#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--header") {
    const results::Layout* l = results::layout_of(argv[2]);
    if (!l) {
      std::cout << argv[2] << ": no layout declared in src/support/results/layouts.hpp\n";
      return 1;
    }
    std::cout << l->columns << "\n";
    return 0;
  }
  int bad = 0;
  for (int k = 1; k < argc; ++k) {
    const std::string path = argv[k];
    const std::string file = path.substr(path.find_last_of('/') + 1);
    const results::Layout* l = results::layout_of(file);
    if (!l) {
      std::cout << path << ": no layout declared in src/support/results/layouts.hpp\n";
      ++bad;
      continue;
    }
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line) && !line.empty() && line[0] == '#') {
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line != l->columns) {
      std::cout << path << ": header\n  " << line << "\nis not its layout (" << l->writer << ")\n  " << l->columns << "\n";
      ++bad;
    }
    // rows with another number of fields than the header (an unquoted comma in a text field): a
    // warning for now, the data are the writers' (the reader takes the first fields by position)
    const size_t want = l->names().size();
    size_t n = 0, odd = 0, first = 0;
    std::string row;
    while (std::getline(in, row)) {
      ++n;
      if (row.empty() || row[0] == '#') continue;
      if (!row.empty() && row.back() == '\r') row.pop_back();
      if (results::split_csv(row).size() != want && odd++ == 0) first = n;
    }
    if (odd)
      std::cout << "warning: " << path << ": " << odd << " row(s) with a field count other than the header's " << want
                << " (first: data row " << first << "; " << l->writer << " writes a text field with a comma unquoted)\n";
  }
  std::cout << (argc - 1 - bad) << " of " << (argc - 1) << " CSV headers match their layout\n";
  return bad ? 1 : 0;
}
