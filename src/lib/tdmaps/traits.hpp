// tdmaps/traits.hpp — what the library and its experiments know of a map besides its
// arithmetic, declared beside the map: each map header specializes map_traits<M> under its
// policy type. The registry (registry.hpp) derives every list of maps from these traits, so
// a new map is its header (policy + traits) and one line in registry.hpp (CONTRIBUTING.md).
// Host-only constants: no kernel reads them.
#pragma once

namespace tdmaps {

// The experiments a 2D map joins (a bit set; 3D maps: none, every 3D map runs every 3D experiment).
namespace experiment {
enum : unsigned {
  none = 0,
  dummy = 1u << 0,         // bench_maps --test dummy times it by default
  sqrt = 1u << 1,          // bench_maps --test sqrt (the square-root study) times it by default
  apps = 1u << 2,          // EDM and collision kernels are compiled for it (experiments/apps2d)
  apps_default = 1u << 3,  // ... and bench_apps times it by default
  fast = 1u << 4,          // a tiled fast EDM kernel "<name>-fast" is compiled for it (blockwise)
  fast_default = 1u << 5,  // ... and bench_apps times that one by default
};
}  // namespace experiment

// How the figures draw a map: a colour, a gnuplot point type and dash type (its "-fast" EDM
// variant: the same colour, dashed, open points).
struct look {
  const char* color;
  int point;
  int dash = 1;
};

// Specialized by every map, beside its policy:
//   static constexpr unsigned joins;     the experiments it joins (experiment::...)
//   static constexpr look style;         its figure style
//   static constexpr const char* about;  one line: what it is (README's map table)
template <class M>
struct map_traits;

}  // namespace tdmaps
