#include "filecoin/bincode/bincode.hpp"

namespace cuzk::filecoin {

void BincodeReader::fail(const std::string& field, const std::string& msg) const {
  throw BincodeError(what_ + ": " + field + " at byte " + std::to_string(pos_) + ": " + msg);
}

void BincodeReader::need(size_t n, const char* field) const {
  if (b_.size() - pos_ < n)
    fail(field,
         "truncated (needs " + std::to_string(n) + " bytes, " + std::to_string(b_.size() - pos_) + " left)");
}

namespace {

// Little-endian unsigned of `bytes` bytes.
uint64_t read_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

void write_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) out.push_back(char((v >> (8 * i)) & 0xff));
}

}  // namespace

uint32_t BincodeReader::u32(const char* field) {
  need(4, field);
  pos_ += 4;
  return uint32_t(read_le(b_.data() + pos_ - 4, 4));
}

uint64_t BincodeReader::u64(const char* field) {
  need(8, field);
  pos_ += 8;
  return read_le(b_.data() + pos_ - 8, 8);
}

Domain BincodeReader::domain(const char* field) {
  need(32, field);
  Domain d;
  std::copy(b_.begin() + pos_, b_.begin() + pos_ + 32, d.begin());
  pos_ += 32;
  return d;
}

uint64_t BincodeReader::len(const char* field, size_t min_item_bytes) {
  const size_t at = pos_;
  uint64_t n = u64(field);
  if (min_item_bytes && n > (b_.size() - pos_) / min_item_bytes) {
    pos_ = at;
    fail(field, "length " + std::to_string(n) + " is more than the " + std::to_string(b_.size() - at - 8) +
                    " bytes left can hold");
  }
  return n;
}

std::string BincodeReader::bytes(const char* field) {
  const uint64_t n = len(field, 1);
  std::string s(reinterpret_cast<const char*>(b_.data() + pos_), size_t(n));
  pos_ += size_t(n);
  return s;
}

std::vector<MerklePathElement> BincodeReader::path(const char* field) {
  uint64_t n = len(field, 16);
  std::vector<MerklePathElement> out(n);
  for (auto& e : out) {
    uint64_t h = len("hashes", 32);
    e.hashes.resize(h);
    for (auto& d : e.hashes) d = domain("hash");
    e.index = u64("index");
  }
  return out;
}

MerkleProof BincodeReader::merkle_proof(const char* field) {
  MerkleProof p;
  const size_t at = pos_;
  uint32_t variant = u32(field);
  switch (variant) {
    case 0:  // Single { root, leaf, path }
      p.shape = MerkleProofShape::Single;
      p.root = domain("root");
      p.leaf = domain("leaf");
      p.base = path("path");
      break;
    case 1:  // Sub { base_proof, sub_proof, root, leaf }
      p.shape = MerkleProofShape::Sub;
      p.base = path("base_proof");
      p.sub = path("sub_proof");
      p.root = domain("root");
      p.leaf = domain("leaf");
      break;
    case 2:  // Top { base_proof, sub_proof, top_proof, root, leaf }
      p.shape = MerkleProofShape::Top;
      p.base = path("base_proof");
      p.sub = path("sub_proof");
      p.top = path("top_proof");
      p.root = domain("root");
      p.leaf = domain("leaf");
      break;
    default:
      pos_ = at;
      fail(field, "unknown MerkleProof variant " + std::to_string(variant) + " (0 Single, 1 Sub, 2 Top)");
  }
  return p;
}

void BincodeReader::expect_end() {
  if (pos_ != b_.size()) fail("end", std::to_string(b_.size() - pos_) + " trailing bytes");
}

void BincodeWriter::u32(uint32_t v) { write_le(out_, v, 4); }

void BincodeWriter::u64(uint64_t v) { write_le(out_, v, 8); }

void BincodeWriter::domain(const Domain& d) {
  out_.append(reinterpret_cast<const char*>(d.data()), d.size());
}

void BincodeWriter::bytes(std::string_view b) {
  u64(b.size());
  out_.append(b);
}

void BincodeWriter::raw(std::string_view b) { out_.append(b); }

void BincodeWriter::path(const std::vector<MerklePathElement>& p) {
  u64(p.size());
  for (const auto& e : p) {
    u64(e.hashes.size());
    for (const auto& h : e.hashes) domain(h);
    u64(e.index);
  }
}

void BincodeWriter::merkle_proof(const MerkleProof& p) {
  switch (p.shape) {
    case MerkleProofShape::Single:
      u32(0);
      domain(p.root);
      domain(p.leaf);
      path(p.base);
      break;
    case MerkleProofShape::Sub:
      u32(1);
      path(p.base);
      path(p.sub);
      domain(p.root);
      domain(p.leaf);
      break;
    case MerkleProofShape::Top:
      u32(2);
      path(p.base);
      path(p.sub);
      path(p.top);
      domain(p.root);
      domain(p.leaf);
      break;
  }
}

}  // namespace cuzk::filecoin
