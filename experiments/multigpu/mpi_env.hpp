// experiments/multigpu/mpi_env.hpp — the few MPI operations the multi-GPU program needs,
// behind one small interface so that the same program source builds with MPI
// (multi_hist_mpi: mpi_env.cpp, TDMAPS_WITH_MPI) and without it (multi_hist: one rank,
// every call trivial). MPI itself is the library (OpenMPI, MPICH, ...): nothing here
// schedules or communicates by hand.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace tdmaps::multi {

struct MpiWorld {
  int rank = 0, size = 1;              // MPI_COMM_WORLD
  int local_rank = 0, local_size = 1;  // the ranks on this node (MPI_COMM_TYPE_SHARED)
  bool active = false;                 // false: built without MPI, or not started under mpirun
};

#if defined(TDMAPS_WITH_MPI)
MpiWorld mpi_init(int* argc, char*** argv);
void mpi_finalize();
void mpi_bcast(void* data, size_t bytes, int root);
void mpi_allreduce_sum(std::uint64_t* data, size_t n);      // in place, exact
bool mpi_all(bool ok);                                       // logical AND over ranks
double mpi_max(double v);                                    // max over ranks
// Ends every rank with `code` (after one line on stderr from the caller).
[[noreturn]] void mpi_exit(int code);
#else
inline MpiWorld mpi_init(int*, char***) { return MpiWorld{}; }
inline void mpi_finalize() {}
inline void mpi_bcast(void*, size_t, int) {}
inline void mpi_allreduce_sum(std::uint64_t*, size_t) {}
inline bool mpi_all(bool ok) { return ok; }
inline double mpi_max(double v) { return v; }
[[noreturn]] inline void mpi_exit(int code) { std::exit(code); }
#endif

}  // namespace tdmaps::multi
