// cuzk: Groth16 over BLS12-381 from the command line, for snarkjs/circom and
// bellperson users.
//
//   cuzk prove  --zkey C.zkey --wtns W.wtns --proof proof.json --public public.json [--check full|full-every-run|curve]
//   cuzk prove  --params C.params --r1cs C.r1cs --wtns W.wtns --proof proof.bin [--public public.json] [--check ..]
//   cuzk verify --vk VK.json|VK.vk --proof proof.json|proof.bin --public public.json
//   cuzk info   C.r1cs|C.cuzk-r1cs|C.zkey
//   cuzk export --from C.zkey|C.vk|C.params --to VK.json|VK.vk
//   cuzk setup  --r1cs C.r1cs --params OUT.params --vk OUT.vk [--vk-json OUT.json]
//   cuzk setup  --circuit porep-2k|winning-post-2k|window-post-2k|snap-2k|... [--param-dir DIR]  (Filecoin file names)
//   cuzk porep-prove --c1 c1.json [--param-dir DIR] --proof OUT
//   cuzk verify-seal --proof P (--c1 c1.json | --comm-r .. --comm-d .. --seed .. ...) [--param-dir DIR]
//   cuzk post-prove --registered-proof N --randomness HEX --vanilla V.json [--partition K] --proof OUT
//   cuzk verify-post --registered-proof N --randomness HEX (--vanilla V.json | --sector ID:COMM_R ...) --proof P
//   cuzk update-prove --registered-proof N --comm-r-old H --comm-r-new H --comm-d-new H --vanilla V.json --proof OUT
//   cuzk verify-update --registered-proof N --comm-r-old H --comm-r-new H --comm-d-new H --proof P
//
// `setup` makes DEVELOPMENT parameters from local randomness: not a trusted
// setup ceremony (whoever runs it can forge proofs).
//
// `prove --check`: full (default) checks every key point for curve and
// prime-order-subgroup membership once per key file: the SHA-256 of a key
// that passed is recorded (formats/key_record.hpp) and later runs with the
// same bytes check the curve equation only. full-every-run skips the record;
// curve checks the curve equation only, for keys you trust. snarkjs checks
// no key point, so `--check curve` is the like-for-like comparison with
// `snarkjs groth16 prove`. The subgroup checks cost about 40-90 µs of CPU per
// point (Scott's endomorphism tests, run in parallel): ~25 s for the ~400,000
// points of a 2^16-constraint .zkey.
#include <CLI/CLI.hpp>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <chrono>
#include <bit>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <string_view>
#include <system_error>
#include <thread>

#include "formats/circom.hpp"
#include "formats/key_record.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "platform/process_heap.hpp"
#include "r1cs/evaluate.hpp"
#include "porep_cmds.hpp"
#include "post_cmds.hpp"
#include "snap_cmds.hpp"
#include "progress.hpp"

namespace fmt_ = cuzk::formats;
namespace g16 = cuzk::groth16;
using cuzk::ff::Fr;

namespace {

using cuzk::cli::Progress;

// The subcommand: the first argument that is not an option (-q, the only
// option allowed before it, takes no value).
std::string_view subcommand_of(int argc, char** argv) {
  for (int i = 1; i < argc; i++)
    if (argv[i][0] != '-') return argv[i];
  return {};
}

// TBB's first parallel loop in a process spends ~2 ms loading its allocator
// and starting its worker threads. Begun on a thread of its own at entry,
// that start overlaps the command line's setup and the opening of the files,
// and the first real loop finds the workers running (0.3 ms).
class TbbWarmup {
 public:
  TbbWarmup() {
    try {
      thread_ = std::thread([] { tbb::parallel_for(0, 2, [](int) {}); });
    } catch (const std::system_error&) {
      // No thread to spare: TBB starts on its first use instead.
    }
  }
  ~TbbWarmup() {
    if (thread_.joinable()) thread_.join();
  }
  TbbWarmup(const TbbWarmup&) = delete;
  TbbWarmup& operator=(const TbbWarmup&) = delete;

 private:
  std::thread thread_;
};

// Sniffs a file's start without reading all of it (a .zkey is 58 MB at 2^16).
bool has_magic(const std::string& path, const char* magic, size_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  std::string b(n, '\0');
  in.read(b.data(), std::streamsize(n));
  return size_t(in.gcount()) == n && std::memcmp(b.data(), magic, n) == 0;
}

struct KeyCheck {
  cuzk::ec::Check check;
  fmt_::CheckedKeys record;  // disabled for full-every-run and curve
};
KeyCheck parse_check(const std::string& s) {
  if (s == "full") return {cuzk::ec::Check::Full, fmt_::CheckedKeys()};
  if (s == "full-every-run") return {cuzk::ec::Check::Full, fmt_::CheckedKeys(std::nullopt)};
  if (s == "curve") return {cuzk::ec::Check::SkipSubgroup, fmt_::CheckedKeys(std::nullopt)};
  throw CLI::ValidationError("--check must be full, full-every-run or curve (got " + s + ")");
}

bool ends_with(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

g16::VerifyingKey load_vk(const std::string& path) {
  if (fmt_::file_looks_like_json(path)) return fmt_::vk_from_snarkjs_json(fmt_::read_text_file(path), path);
  if (has_magic(path, "zkey", 4)) {
    fmt_::ZkeyReadOptions o;
    o.vk_only = true;  // the vk points are fully checked; the proving key is not read
    return fmt_::read_zkey_file(path, o).vk;
  }
  auto b = fmt_::read_binary_file(path);
  // A bellperson .vk is 868 + 96·n bytes; anything else is tried as .params.
  try {
    return g16::decode_verifying_key(b, path);
  } catch (const g16::FormatError& vk_err) {
    try {
      return g16::decode_parameters(b, path).vk;
    } catch (const g16::FormatError&) {
      throw vk_err;
    }
  }
}

int cmd_prove_zkey(const std::string& zkey, const std::string& wtns, const std::string& proof_out,
                   const std::string& public_out, const KeyCheck& check, Progress& pr) {
  pr.step("reading " + zkey + " and " + wtns);
  // The witness is read beside the key (mostly one thread's work, which the
  // key's parallel decode fills around); a bad key is reported first.
  fmt_::Zkey zk;
  std::vector<Fr> w;
  std::exception_ptr wtns_error;
  fmt_::KeyCheckDone done{};
  tbb::parallel_invoke([&] { zk = fmt_::read_zkey_file_checked(zkey, {check.check}, check.record, &done); },
                       [&] {
                         try {
                           w = fmt_::read_any_witness_file(wtns);
                         } catch (...) {
                           wtns_error = std::current_exception();
                         }
                       });
  if (wtns_error) std::rethrow_exception(wtns_error);
  pr.step(std::string("key: ") + fmt_::key_check_text(done));
  pr.step("proving: nVars " + std::to_string(zk.n_vars) + ", nPublic " + std::to_string(zk.n_public) +
          ", domain " + std::to_string(zk.domain_size));
  g16::SecureRng rng;
  fmt_::ZkeyProveOptions o;
  o.progress = [&](std::string_view st, size_t d, size_t t) { pr.stage(st, d, t); };
  g16::Proof p = fmt_::prove_zkey(zk, w, rng, o);
  fmt_::write_text_file(proof_out, fmt_::proof_to_snarkjs_json(p));
  if (!public_out.empty())
    fmt_::write_text_file(public_out, fmt_::public_to_snarkjs_json(fmt_::zkey_public_signals(zk, w)));
  pr.step("wrote " + proof_out + (public_out.empty() ? "" : " and " + public_out));
  return 0;
}

int cmd_prove_params(const std::string& params, const std::string& r1cs_path, const std::string& wtns,
                     const std::string& proof_out, const std::string& public_out, const KeyCheck& check,
                     Progress& pr) {
  pr.step("reading " + r1cs_path);
  auto circ = fmt_::read_any_r1cs_file(r1cs_path);
  pr.step("reading " + params);
  fmt_::KeyCheckDone done{};
  g16::Parameters P = fmt_::read_parameters_file_checked(params, check.check, check.record, &done);
  pr.step(std::string("key: ") + fmt_::key_check_text(done));
  if (P.vk.num_inputs() != circ.r1cs.num_inputs || P.l.size() != circ.r1cs.num_aux)
    throw std::runtime_error(params + ": parameters do not match circuit " + r1cs_path);
  pr.step("reading " + wtns);
  auto z = fmt_::read_any_witness_file(wtns);
  if (z.size() != circ.r1cs.num_variables())
    throw std::runtime_error(wtns + ": witness has " + std::to_string(z.size()) +
                             " values, the circuit has " + std::to_string(circ.r1cs.num_variables()) +
                             " variables");
  if (size_t row = circ.r1cs.first_unsatisfied(z); row != circ.r1cs.num_constraints())
    throw std::runtime_error(wtns + ": witness does not satisfy constraint " + std::to_string(row));
  pr.step("synthesis (evaluating " + std::to_string(circ.r1cs.num_constraints()) + " constraints)");
  auto dens = cuzk::r1cs::ShapeDensities::of(circ.r1cs);
  g16::Assignment a = cuzk::r1cs::evaluate(circ.r1cs, dens, z);
  g16::add_input_constraints(a);
  pr.step("prove_start (NTTs, G1 MSMs)");
  g16::SecureRng rng;
  auto pend = g16::prove_start(std::move(a), P, rng);
  pr.step("prove_finish (G2 MSM)");
  g16::Proof p = g16::prove_finish(std::move(pend));
  if (ends_with(proof_out, ".json")) fmt_::write_text_file(proof_out, fmt_::proof_to_snarkjs_json(p));
  else g16::write_file(proof_out, g16::encode_proof(p));
  std::vector<Fr> pub(z.begin() + 1, z.begin() + circ.r1cs.num_inputs);
  if (!public_out.empty()) fmt_::write_text_file(public_out, fmt_::public_to_snarkjs_json(pub));
  pr.step("wrote " + proof_out);
  return 0;
}

int cmd_verify(const std::string& vk_path, const std::string& proof_path, const std::string& public_path,
               Progress& pr) {
  g16::VerifyingKey vk = load_vk(vk_path);
  g16::Proof p = fmt_::file_looks_like_json(proof_path)
                     ? fmt_::proof_from_snarkjs_json(fmt_::read_text_file(proof_path), proof_path)
                     : g16::decode_proof(fmt_::read_binary_file(proof_path), proof_path);
  auto pub = fmt_::public_from_snarkjs_json(fmt_::read_text_file(public_path), public_path);
  if (pub.size() + 1 != vk.num_inputs()) {
    std::fprintf(stderr, "cuzk verify: %s has %zu public inputs, the key expects %zu\n", public_path.c_str(),
                 pub.size(), vk.num_inputs() - 1);
    return 1;
  }
  bool ok = g16::verify_proof(g16::prepare_verifying_key(vk), p, pub);
  std::printf("%s\n", ok ? "OK: proof is valid" : "INVALID: proof does not verify");
  return ok ? 0 : 1;
}

void print_r1cs_info(const cuzk::r1cs::R1cs& r, const std::string& kind) {
  auto dens = cuzk::r1cs::ShapeDensities::of(r);
  size_t rows = r.num_constraints() + r.num_inputs;  // with Groth16's input constraints
  size_t m = 1;
  while (m < rows) m <<= 1;
  std::printf("format:            %s\n", kind.c_str());
  std::printf("constraints:       %zu\n", r.num_constraints());
  std::printf("public inputs:     %zu (plus ONE)\n", r.num_inputs - 1);
  std::printf("private variables: %zu\n", r.num_aux);
  std::printf("non-zeros A/B/C:   %zu / %zu / %zu\n", r.a.nnz(), r.b.nnz(), r.c.nnz());
  std::printf("A aux density:     %zu / %zu\n", dens.a_aux.total(), r.num_aux);
  std::printf("B density:         inputs %zu / %zu, aux %zu / %zu\n", dens.b_input.total(), r.num_inputs,
              dens.b_aux.total(), r.num_aux);
  std::printf("bellperson domain: 2^%d (%zu rows with the input constraints)\n", std::countr_zero(m), rows);
}

int cmd_info(const std::string& path) {
  if (has_magic(path, "zkey", 4)) {
    fmt_::Zkey z = fmt_::read_zkey_file(path, {cuzk::ec::Check::None, false});
    std::printf("format:            snarkjs zkey (groth16, bls12381)\n");
    std::printf("variables:         %u (nPublic %u)\n", z.n_vars, z.n_public);
    std::printf("domain:            %u\n", z.domain_size);
    std::printf("coefficients:      %zu\n", z.coeffs.size());
    return 0;
  }
  auto c = fmt_::read_any_r1cs_file(path);
  if (!c.r1cs.num_constraints() && !c.r1cs.num_aux) std::printf("(empty circuit)\n");
  print_r1cs_info(c.r1cs, c.kind);
  return 0;
}

int cmd_export(const std::string& from, const std::string& to, Progress& pr) {
  g16::VerifyingKey vk = load_vk(from);
  if (ends_with(to, ".json")) {
    fmt_::write_text_file(to, fmt_::vk_to_snarkjs_json(vk));
  } else {
    if (vk.beta_g1.is_identity() || vk.delta_g1.is_identity())
      throw std::runtime_error(
          from + ": has no beta_g1/delta_g1 (a snarkjs JSON key); cannot write a bellperson .vk");
    g16::write_file(to, g16::encode_verifying_key(vk));
  }
  pr.step("wrote " + to);
  return 0;
}

int cmd_setup(const std::string& r1cs_path, const std::string& params_out, const std::string& vk_out,
              const std::string& vk_json, Progress& pr) {
  pr.step("reading " + r1cs_path);
  auto circ = fmt_::read_any_r1cs_file(r1cs_path);
  pr.step("generating DEVELOPMENT parameters (not a ceremony): " +
          std::to_string(circ.r1cs.num_constraints()) + " constraints");
  g16::SecureRng rng;
  auto tw = g16::ToxicWaste::random(rng);
  g16::SetupOptions so;
  so.progress = [&](std::string_view st, size_t d, size_t t) { pr.stage(st, d, t); };
  g16::Parameters P = g16::generate_parameters(std::move(circ.r1cs), tw, so);
  g16::write_file(params_out, g16::encode_parameters(P));
  if (!vk_out.empty()) g16::write_file(vk_out, g16::encode_verifying_key(P.vk));
  if (!vk_json.empty()) fmt_::write_text_file(vk_json, fmt_::vk_to_snarkjs_json(P.vk));
  pr.step("wrote " + params_out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A one-shot prove pays for its fresh pages (platform/process_heap.hpp).
  // The heap is set up before any other thread allocates, so that TBB's
  // workers share its one arena.
  if (subcommand_of(argc, argv) == "prove") cuzk::platform::reserve_huge_page_heap();
  const TbbWarmup warmup;
  CLI::App app{"cuzk: Groth16 (BLS12-381) prover/verifier, snarkjs- and bellperson-compatible"};
  app.require_subcommand(1);
  app.fallthrough();  // -q also after the subcommand
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "no progress output");

  std::string zkey, wtns, proof, pub, params, r1cs, vk, from, to, vk_json, info_path, check = "full";
  auto* prove = app.add_subcommand("prove", "make a proof (snarkjs .zkey or bellperson .params)");
  prove->add_option("--zkey", zkey, "snarkjs Groth16 proving key");
  prove->add_option("--params", params, "bellperson .params (needs --r1cs)");
  prove->add_option("--r1cs", r1cs, "circuit (.r1cs or .cuzk-r1cs) for --params");
  prove->add_option("--wtns", wtns, "witness (.wtns or .cuzk-wtns)")->required();
  prove->add_option("--proof", proof, "output proof: .json (snarkjs) or binary (192-byte bellperson)")
      ->required();
  prove->add_option("--public", pub, "output public signals (snarkjs JSON)");
  prove
      ->add_option("--check", check,
                   "key validation: full (default: every point on the curve and in the prime-order subgroup, "
                   "once per key file: its SHA-256 is recorded in ~/.cache/cuzk/checked-keys or "
                   "$CUZK_KEY_RECORDS), full-every-run (no record), or curve (on-curve only, for trusted "
                   "keys; snarkjs checks no key point, so this is the like-for-like setting)")
      ->check(CLI::IsMember({"full", "full-every-run", "curve"}));

  auto* verify = app.add_subcommand("verify", "verify a proof; exit status 0 iff valid");
  verify->add_option("--vk", vk, "verifying key: snarkjs JSON, bellperson .vk/.params, or .zkey")->required();
  verify->add_option("--proof", proof, "proof: snarkjs JSON or 192-byte binary")->required();
  verify->add_option("--public", pub, "public signals (snarkjs JSON array)")->required();

  auto* info = app.add_subcommand("info", "circuit statistics");
  info->add_option("file", info_path, ".r1cs, .cuzk-r1cs or .zkey")->required();

  auto* exp = app.add_subcommand("export", "export a verifying key");
  exp->add_option("--from", from, ".zkey, bellperson .vk or .params")->required();
  exp->add_option("--to", to, "output: .json (snarkjs) or bellperson .vk")->required();

  auto* setup = app.add_subcommand("setup", "development parameters for a circuit (NOT a ceremony)");
  setup->add_option("--r1cs", r1cs, "circuit (.r1cs or .cuzk-r1cs)");
  setup->add_option("--params", params, "output bellperson .params (with --r1cs)");
  setup->add_option("--vk", vk, "output bellperson .vk");
  setup->add_option("--vk-json", vk_json, "output snarkjs verification key JSON");

  cuzk::cli::PorepCommands porep;
  porep.add(app, setup);
  cuzk::cli::PostCommands post;
  post.add(app);
  cuzk::cli::SnapCommands snap;
  snap.add(app);

  CLI11_PARSE(app, argc, argv);
  Progress pr;
  pr.quiet = quiet;
  try {
    if (*prove) {
      if (!zkey.empty() == !params.empty())
        throw CLI::ValidationError("prove: give exactly one of --zkey, --params");
      if (!zkey.empty()) return cmd_prove_zkey(zkey, wtns, proof, pub, parse_check(check), pr);
      if (r1cs.empty()) throw CLI::ValidationError("prove --params needs --r1cs");
      return cmd_prove_params(params, r1cs, wtns, proof, pub, parse_check(check), pr);
    }
    if (*verify) return cmd_verify(vk, proof, pub, pr);
    if (*info) return cmd_info(info_path);
    if (*exp) return cmd_export(from, to, pr);
    if (int rc = porep.run(pr); rc >= 0) return rc;
    if (int rc = post.run(pr); rc >= 0) return rc;
    if (int rc = snap.run(pr); rc >= 0) return rc;
    if (*setup) {
      if (r1cs.empty() || params.empty())
        throw CLI::ValidationError("setup: give --r1cs and --params, or --circuit [--param-dir]");
      return cmd_setup(r1cs, params, vk, vk_json, pr);
    }
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  }
  return 2;
}
