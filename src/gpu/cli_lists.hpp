// src/gpu/cli_lists.hpp — command-line list parsing shared by the experiment
// programs (host only, no CUDA).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace tdmaps::cli {

// Bad command-line input: main prints what() on one line and exits with 2.
struct bad_input : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "a,b" "c" -> {"a", "b", "c"}; blanks around items are dropped, empty items refused.
inline std::vector<std::string> split_list(const std::vector<std::string>& args, const char* what) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    size_t s = 0;
    for (;;) {
      const size_t e = a.find(',', s);
      std::string item = a.substr(s, e == std::string::npos ? std::string::npos : e - s);
      const size_t b = item.find_first_not_of(" \t"), l = item.find_last_not_of(" \t");
      item = b == std::string::npos ? "" : item.substr(b, l - b + 1);
      if (item.empty()) throw bad_input(std::string(what) + ": empty item in '" + a + "'");
      out.push_back(item);
      if (e == std::string::npos) break;
      s = e + 1;
    }
  }
  return out;
}

}  // namespace tdmaps::cli
