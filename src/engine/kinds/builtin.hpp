#pragma once
// The proof kinds of this build, one line each: adding a kind is its file
// (kinds/<kind>.hpp with its spec, kinds/<kind>.cpp with its handler) and its
// name in this list.
#include "engine/kinds/generic_r1cs.hpp"
#include "engine/kinds/kind_spec.hpp"
#include "engine/kinds/porep_c2.hpp"
#include "engine/kinds/post.hpp"
#include "engine/kinds/snap_update.hpp"

namespace cuzk::engine::kinds {

using Builtin = KindList<PorepC2, SnapUpdate, WindowPost, WinningPost, GenericR1cs>;

}  // namespace cuzk::engine::kinds
