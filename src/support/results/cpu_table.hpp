// src/support/results/cpu_table.hpp — opening a CPU table, OUT/cpu/<file>, for the host-only programs
// that write one (experiments/maps3d/wasted3d.cpp, ...): the folder made, the metadata line ("# " +
// JSON: program, date_utc, then the program's own members) and the layout's header written.
#pragma once
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

namespace results {

// The open table (the caller writes the rows and closes it), or nullptr with one line on stderr when
// it cannot be written. `members`: further JSON members, each ",\"key\":\"value\"" (may be empty);
// `columns`: the layout's header (layouts.hpp, results::layout::<name>.columns).
inline std::FILE* open_cpu_table(const std::string& out, const std::string& file, const char* program,
                                 const std::string& members, const char* columns) {
  const std::string dir = out + "/cpu", path = dir + "/" + file;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", program, path.c_str());
    return nullptr;
  }
  char date[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  std::fprintf(f, "# {\"program\":\"%s\",\"date_utc\":\"%s\"%s}\n%s\n", program, date, members.c_str(), columns);
  return f;
}

}  // namespace results
