#pragma once
// The proof kinds of this build: adding a kind is its folder kinds/<kind>/
// (spec.hpp: the KindSpec and the handler factory's declaration;
// handler.{hpp,cpp}: the KindHandler) and its registration here (the
// include and its name in the list).
#include "engine/kinds/generic_r1cs/spec.hpp"
#include "engine/kinds/kind_spec.hpp"
#include "engine/kinds/porep_c2/spec.hpp"
#include "engine/kinds/post/spec.hpp"
#include "engine/kinds/snap_update/spec.hpp"

namespace cuzk::engine::kinds {

using Builtin = KindList<PorepC2, SnapUpdate, WindowPost, WinningPost, GenericR1cs>;

}  // namespace cuzk::engine::kinds
