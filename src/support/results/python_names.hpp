// src/support/results/python_names.hpp — the vocabulary of peers_python.csv (issue #38; issue #39: typed once): the
// impl of the Python call's rows and of the C++ call's, tdmaps.pdist's outputs, and each peer's rows (impl, output,
// precision, device) under its word of python_peers.py --peers.
//   Producer: experiments/peers/python_peers.py takes these from experiments/layouts.py (PYTHON_*), which
//   `check_layouts --python` writes from this header (the test peer_headers holds the file to that output).
//   Readers: readme_python.cpp, paper/claims/targets.cpp, figures/synth_results.cpp.
// Also peers_gram.csv's rows (experiments/peers/gram_peers.py, namespace results::gram_peers below): their names are
// gram.csv's (gram_names.hpp gram::peer, gram::name), each under its word of gram_peers.py --impls. And peers_edm.csv's
// impls (experiments/peers/torch_peers.py, namespace results::edm_peers below), which figures/fig_2d.cpp reads. And
// peers_sdh.csv's impls and the words of its exact_at_verify_n (experiments/sdh/torch_sdh.py, namespace
// results::sdh_peers below), which figures/synth_results.cpp writes.
#pragma once
#include "gram_names.hpp"  // the precisions' names
#include "layouts.hpp"     // edm.csv's layouts (edm_variant), peers_edm.csv's layout column

namespace results::python_peers {

inline constexpr const char* pdist = "tdmaps.pdist";            // the Python call, one row per output
inline constexpr const char* cpp_impl = "tdmaps._core.Enqueue";  // the same GPU work queued by one C++ call
inline constexpr const char* outputs[] = {"condensed", "lower", "square"};  // tdmaps.pdist's out

// A peer's row: the --peers word that runs it, its impl, output, precision and device; label: README's name for it.
struct Peer {
  const char *word, *impl, *output, *precision, *device, *label;
};
inline constexpr Peer torch_pdist{"torch.pdist", "torch.pdist", "condensed", gram::peer::fp32, "gpu", "`torch.pdist`"};
inline constexpr Peer torch_cdist_tf32{"torch.cdist", "torch.cdist", "square", gram::name(gram::Prec::tf32), "gpu",
                                       "`torch.cdist` (TF32)"};  // TF32 allowed
inline constexpr Peer torch_cdist_fp32{"torch.cdist", "torch.cdist", "square", gram::peer::fp32, "gpu", "`torch.cdist` (FP32)"};
inline constexpr Peer cupy_pdist{"cupy", "cupyx.scipy.spatial.distance.pdist", "condensed", gram::peer::fp32, "gpu",
                                 "CuPy `pdist`"};
inline constexpr Peer scipy_pdist{"scipy", "scipy.spatial.distance.pdist", "condensed", gram::peer::fp64, "cpu",
                                  "SciPy `pdist` (CPU, float64)"};
// Every peer row, in the order python_peers.py runs them and README's table shows them.
inline constexpr Peer peers[] = {torch_pdist, torch_cdist_tf32, torch_cdist_fp32, cupy_pdist, scipy_pdist};

}  // namespace results::python_peers

namespace results::gram_peers {

// A row of peers_gram.csv: the --impls word that runs it, its impl, precision and output (readme_gram.cpp and
// figures/fig_gram.cpp read them by gram::peer's names).
struct Peer {
  const char *word, *impl, *precision, *output;
};
// In the order gram_peers.py runs them: torch.cdist with TF32 allowed and not, torch.mm (the Gram matrix alone).
inline constexpr Peer peers[] = {
    {"cdist-tf32", gram::peer::torch_cdist, gram::name(gram::Prec::tf32), gram::name(gram::Output::full)},
    {"cdist-fp32", gram::peer::torch_cdist, gram::peer::fp32, gram::name(gram::Output::full)},
    {"mm-tf32", gram::peer::torch_mm, gram::name(gram::Prec::tf32), gram::name(gram::Output::full_gram)},
};

}  // namespace results::gram_peers

namespace results::edm_peers {

// A row of peers_edm.csv: its impl (also torch_peers.py's --impls word) and the layout of its output (column layout: edm.csv's
// variant words, layouts.hpp edm_variant).
struct Peer {
  const char *impl, *layout;
};
inline constexpr Peer pdist{"pdist", edm_variant::packed};              // torch.nn.functional.pdist: the triangle, condensed
inline constexpr Peer cdist{"cdist", edm_variant::full};                // torch.cdist in PyTorch's default compute mode
inline constexpr Peer cdist_direct{"cdist-direct", edm_variant::full};  // torch.cdist, compute_mode='donot_use_mm_for_euclid_dist'
// Every impl, in the order torch_peers.py runs them.
inline constexpr Peer peers[] = {pdist, cdist, cdist_direct};

}  // namespace results::edm_peers

namespace results::sdh_peers {

// peers_sdh.csv's impls (also torch_sdh.py's --impl words), in the order torch_sdh.py runs them.
inline constexpr const char* direct = "torch-direct";  // the rule of apps/sdh_cpu.hpp op by op (exact)
inline constexpr const char* cdist = "torch-cdist";    // torch.cdist's matrix-multiply distances (inexact)
inline constexpr const char* impls[] = {direct, cdist};
// exact_at_verify_n: whether the impl's histogram at --verify-max points equals the rule's
inline constexpr const char* exact_yes = "yes";
inline constexpr const char* exact_no = "no";

}  // namespace results::sdh_peers
