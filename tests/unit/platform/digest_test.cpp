// platform::Hasher / sha256 (OpenSSL opened at run time) against the
// published test vectors: FIPS 180-2 appendix B for SHA-256, RFC 7693
// appendix B for BLAKE2s-256.
#include <gtest/gtest.h>

#include <string_view>
#include <thread>
#include <vector>

#include "platform/digest.hpp"
#include "platform/hex.hpp"
#include "platform/libcrypto.hpp"

using namespace cuzk::platform;

namespace {

std::span<const uint8_t> bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

constexpr std::string_view kAbcSha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr std::string_view kTwoBlockSha256 =
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
constexpr std::string_view kTwoBlock = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

}  // namespace

TEST(Digest, Sha256MatchesFips180Vectors) {
  EXPECT_EQ(to_hex(sha256(bytes("abc"))), kAbcSha256);
  EXPECT_EQ(to_hex(sha256(bytes(kTwoBlock))), kTwoBlockSha256);
  EXPECT_EQ(to_hex(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // A million 'a's, fed in uneven pieces to one incremental hasher.
  Sha256 h;
  const std::string a(1000, 'a');
  for (size_t done = 0, step = 1; done < 1000000; done += step, step = step % 997 + 1)
    h.update(bytes(std::string_view(a).substr(0, std::min<size_t>(step, 1000000 - done))));
  EXPECT_EQ(to_hex(h.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Digest, Blake2s256MatchesRfc7693Vector) {
  Hasher h(HashKind::Blake2s256);
  EXPECT_EQ(to_hex(h.update(bytes("ab")).update(bytes("c")).finish()),
            "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
}

TEST(Digest, AHasherStartsOverAfterFinishResetAndHash) {
  Sha256 h;
  h.update(bytes("abc"));
  EXPECT_EQ(to_hex(h.finish()), kAbcSha256);
  EXPECT_EQ(to_hex(h.update(bytes("abc")).finish()), kAbcSha256);  // finish() started over
  h.update(bytes("stale"));
  h.reset();
  EXPECT_EQ(to_hex(h.update(bytes("abc")).finish()), kAbcSha256);
  h.update(bytes("stale"));  // hash() drops what an update left
  EXPECT_EQ(to_hex(h.hash(bytes("abc"))), kAbcSha256);
  EXPECT_EQ(to_hex(h.hash(bytes(kTwoBlock))), kTwoBlockSha256);
}

TEST(Digest, Sha256FromManyThreadsAtOnce) {
  // sha256() keeps one hasher per thread; the library opens once.
  std::vector<std::thread> threads;
  std::vector<std::string> out(8);
  for (size_t t = 0; t < out.size(); t++)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; i++) out[t] = to_hex(sha256(bytes(t % 2 ? "abc" : kTwoBlock)));
    });
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < out.size(); t++) EXPECT_EQ(out[t], t % 2 ? kAbcSha256 : kTwoBlockSha256);
  EXPECT_EQ(&libcrypto(), &libcrypto());
}
