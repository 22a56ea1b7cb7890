#pragma once
// The proof kinds of this build, one line each: adding a kind is its spec
// (kinds/<kind>.hpp, with the handler factory's declaration), its handler
// (engine/<kind>_handler.{hpp,cpp}) and its name in this list.
#include "engine/kinds/generic_r1cs.hpp"
#include "engine/kinds/kind_spec.hpp"
#include "engine/kinds/porep_c2.hpp"
#include "engine/kinds/post.hpp"
#include "engine/kinds/snap_update.hpp"

namespace cuzk::engine::kinds {

using Builtin = KindList<PorepC2, SnapUpdate, WindowPost, WinningPost, GenericR1cs>;

}  // namespace cuzk::engine::kinds
