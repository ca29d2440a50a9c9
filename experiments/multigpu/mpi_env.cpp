// experiments/multigpu/mpi_env.cpp — mpi_env.hpp on MPI (built when meson finds MPI).
#ifndef TDMAPS_WITH_MPI
#define TDMAPS_WITH_MPI 1  // this file is the MPI side of mpi_env.hpp
#endif
#include "mpi_env.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace tdmaps::multi {

MpiWorld mpi_init(int* argc, char*** argv) {
  MpiWorld w;
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &w.local_rank);
  MPI_Comm_size(node, &w.local_size);
  MPI_Comm_free(&node);
  w.active = true;
  return w;
}
void mpi_finalize() {
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) MPI_Finalize();
}
void mpi_bcast(void* data, size_t bytes, int root) {
  MPI_Bcast(data, int(bytes), MPI_BYTE, root, MPI_COMM_WORLD);
}
void mpi_allreduce_sum(std::uint64_t* data, size_t n) {
  MPI_Allreduce(MPI_IN_PLACE, data, int(n), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}
bool mpi_all(bool ok) {
  int v = ok ? 1 : 0, r = 0;
  MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return r == 1;
}
double mpi_max(double v) {
  double r = v;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return r;
}
void mpi_exit(int code) {
  // Every rank reaches here with the same code (the callers agree through mpi_all first),
  // so a clean finalize is possible; a rank that fails alone aborts the job instead.
  mpi_finalize();
  std::exit(code);
}

}  // namespace tdmaps::multi
