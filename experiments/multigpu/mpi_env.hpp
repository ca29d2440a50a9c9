// experiments/multigpu/mpi_env.hpp — the few MPI operations the multi-GPU program needs,
// behind one small interface so that the same program object links with MPI
// (multi_hist_mpi: mpi_env.cpp) and without it (multi_hist: mpi_stub.cpp, one rank,
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

// Defined twice: mpi_env.cpp (MPI; linked into multi_hist_mpi) and mpi_stub.cpp (one rank,
// every call trivial; linked into multi_hist). multi_hist.cu is compiled once for both.
MpiWorld mpi_init(int* argc, char*** argv);
void mpi_finalize();
void mpi_bcast(void* data, size_t bytes, int root);
void mpi_allreduce_sum(std::uint64_t* data, size_t n);      // in place, exact
bool mpi_all(bool ok);                                       // logical AND over ranks
double mpi_max(double v);                                    // max over ranks
// Ends every rank with `code` (after one line on stderr from the caller).
[[noreturn]] void mpi_exit(int code);

}  // namespace tdmaps::multi
