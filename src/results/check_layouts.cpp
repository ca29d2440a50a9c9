// src/results/check_layouts.cpp — every results CSV given on the command line has the header
// its layout declares (src/results/layouts.hpp); a file without a declared layout is an error
// too, so that a new CSV gets its layout. Used by the drift test (paper/drift_test.sh).
//   check_layouts FILE...     exit 0 when all agree, 1 with one line per difference
#include "layouts.hpp"

#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  int bad = 0;
  for (int k = 1; k < argc; ++k) {
    const std::string path = argv[k];
    const std::string file = path.substr(path.find_last_of('/') + 1);
    const results::Layout* l = results::layout_of(file);
    if (!l) {
      std::cout << path << ": no layout declared in src/results/layouts.hpp\n";
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
  }
  std::cout << (argc - 1 - bad) << " of " << (argc - 1) << " CSV headers match their layout\n";
  return bad ? 1 : 0;
}
