// experiments/multigpu/mpi_stub.cpp — mpi_env.hpp without MPI (multi_hist): one rank, every
// call trivial. mpi_env.cpp is the MPI side (multi_hist_mpi); the program object is the same.
#include "mpi_env.hpp"

namespace tdmaps::multi {

MpiWorld mpi_init(int*, char***) { return MpiWorld{}; }
void mpi_finalize() {}
void mpi_bcast(void*, size_t, int) {}
void mpi_allreduce_sum(std::uint64_t*, size_t) {}
bool mpi_all(bool ok) { return ok; }
double mpi_max(double v) { return v; }
[[noreturn]] void mpi_exit(int code) { std::exit(code); }

}  // namespace tdmaps::multi
