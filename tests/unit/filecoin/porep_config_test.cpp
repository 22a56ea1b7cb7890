// Registered proofs, porep_id and parameter file names (docs/FILECOIN.md §2.1,
// §5.2, §7.1).
#include <gtest/gtest.h>

#include "filecoin/common/param_names.hpp"
#include "filecoin/common/registered_proof.hpp"

using namespace cuzk::filecoin;

TEST(RegisteredProof, GeometryPerSize) {
  auto c2k = *porep_config(5);
  EXPECT_EQ(c2k.name, "StackedDrg2KiBV1_1");
  EXPECT_EQ(c2k.nodes, 64u);
  EXPECT_EQ(c2k.layers, 2u);
  EXPECT_EQ(c2k.total_challenges(), 2u);
  EXPECT_EQ(c2k.tree_d_depth(), 6u);
  auto c32 = *porep_config("StackedDrg32GiBV1_1");
  EXPECT_EQ(uint64_t(c32.id), 8u);
  EXPECT_EQ(c32.nodes, uint64_t(1) << 30);
  EXPECT_EQ(c32.shape.base_tree_count(), 8u);
  EXPECT_EQ(c32.layers, 11u);
  EXPECT_EQ(c32.partitions, 10u);
  EXPECT_EQ(c32.challenges_per_partition, 18u);
  auto c64 = *porep_config(9);
  EXPECT_EQ(c64.shape.base_tree_count(), 16u);
  EXPECT_EQ(c64.tree_d_depth(), 31u);
  EXPECT_EQ(porep_config(0)->api, ApiVersion::V1_0_0);
  EXPECT_EQ(porep_config(12)->mode, ChallengeMode::Synthetic);
  EXPECT_EQ(porep_config(15)->partitions, 13u);
  EXPECT_EQ(porep_config(18)->partitions, 126u);
  EXPECT_FALSE(porep_config(20));
  EXPECT_FALSE(porep_config("StackedDrg4KiBV1"));
  EXPECT_EQ(uint64_t(porep_config_for_size(8u << 20)->id), 6u);
  EXPECT_FALSE(porep_config_for_size(4096));
}

TEST(RegisteredProof, PorepIdLayout) {
  auto id = porep_config(8)->porep_id();
  EXPECT_EQ(id[0], 8);
  for (size_t i = 1; i < 32; i++) EXPECT_EQ(id[i], 0) << i;
}

TEST(RegisteredProof, SectorSizeText) {
  EXPECT_EQ(parse_sector_size("2KiB"), 2048u);
  EXPECT_EQ(parse_sector_size("32GiB"), uint64_t(32) << 30);
  EXPECT_EQ(parse_sector_size("2048"), 2048u);
  EXPECT_EQ(parse_sector_size("4MiB"), uint64_t(4) << 20);
  EXPECT_FALSE(parse_sector_size("2KB"));
  EXPECT_FALSE(parse_sector_size(""));
  EXPECT_FALSE(parse_sector_size("99999999999999999999GiB"));
  EXPECT_EQ(format_sector_size(uint64_t(64) << 30), "64GiB");
  EXPECT_EQ(format_sector_size(2048), "2KiB");
  EXPECT_EQ(format_sector_size(100), "100B");
}

// docs/FILECOIN.md §5.2: published file names for 2KiB and 32GiB.
TEST(ParameterNames, PublishedStems) {
  EXPECT_EQ(porep_parameter_stem(*porep_config(5)),
            "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
            "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f");
  EXPECT_EQ(porep_parameter_stem(*porep_config(8)),
            "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
            "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820");
  // Every version of a size shares the file.
  EXPECT_EQ(porep_parameter_stem(*porep_config(0)), porep_parameter_stem(*porep_config(10)));
}

// Synthetic PoRep proves the interactive partitions (fp registry.rs
// partitions(), POREP_PARTITIONS); NI-PoRep takes the minimum challenge
// counts of fp constants.rs (26 test sizes, 2253 production) over 13 / 126
// partitions, rounded up per partition (parameters.rs select_challenges), and
// so reaches the interactive circuits' 2 / 18 challenges per partition.
TEST(RegisteredProof, SyntheticAndNonInteractiveGeometry) {
  for (uint64_t size = 0; size < 5; size++) {
    const auto interactive = *porep_config(5 + size), synth = *porep_config(10 + size),
               ni = *porep_config(15 + size);
    EXPECT_EQ(synth.partitions, interactive.partitions) << synth.name;
    EXPECT_EQ(synth.challenges_per_partition, interactive.challenges_per_partition) << synth.name;
    EXPECT_EQ(synth.api, ApiVersion::V1_2_0);
    EXPECT_EQ(ni.api, ApiVersion::V1_2_0);
    EXPECT_EQ(ni.mode, ChallengeMode::NonInteractive);
    const size_t minimum = interactive.layers == 2 ? 26 : 2253;
    EXPECT_EQ(ni.challenges_per_partition, (minimum + ni.partitions - 1) / ni.partitions) << ni.name;
    EXPECT_EQ(ni.challenges_per_partition, interactive.challenges_per_partition) << ni.name;
    // One parameter file per size.
    EXPECT_EQ(porep_parameter_stem(ni), porep_parameter_stem(interactive));
    EXPECT_EQ(porep_parameter_stem(synth), porep_parameter_stem(interactive));
  }
}

TEST(RegisteredProof, ApiVersionText) {
  EXPECT_EQ(parse_api_version("1.0"), ApiVersion::V1_0_0);
  EXPECT_EQ(parse_api_version("1.1.0"), ApiVersion::V1_1_0);
  EXPECT_EQ(parse_api_version("1.2"), ApiVersion::V1_2_0);
  EXPECT_FALSE(parse_api_version("1.3"));
  EXPECT_FALSE(parse_api_version("2.0"));
  EXPECT_FALSE(parse_api_version("1.2.1"));
  EXPECT_FALSE(parse_api_version(""));
  EXPECT_EQ(api_version_text(ApiVersion::V1_2_0), "1.2.0");
}

// Upstream's lower-level PoRepConfig {porep_id, api_version, api_features}.
TEST(RegisteredProof, ExplicitPorepIdAndApiVersion) {
  PorepId test_id;
  test_id.fill(127);  // a test network's porep_id (seal regression records)
  auto c = porep_config_with_id(*porep_config(10), test_id, ApiVersion::V1_2_0);
  EXPECT_EQ(c.porep_id(), test_id);
  EXPECT_EQ(c.name, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep");
  EXPECT_EQ(c.mode, ChallengeMode::Synthetic);
  EXPECT_EQ(c.partitions, 1u);
  EXPECT_EQ(porep_parameter_stem(c), porep_parameter_stem(*porep_config(5)));
  // The seal regression records' "1.2.0 + SyntheticPoRep with porep id 5" and v1.0 ids.
  auto five = porep_config(5)->porep_id();
  EXPECT_EQ(porep_config_with_id(*porep_config(10), five, ApiVersion::V1_2_0).porep_id(), five);
  EXPECT_EQ(porep_config_with_id(*porep_config(5), porep_config(0)->porep_id(), ApiVersion::V1_0_0).api,
            ApiVersion::V1_0_0);
  // A porep_id naming a registered proof of another size (8: 32 GiB) is refused, naming both.
  try {
    porep_config_with_id(*porep_config(5), porep_config(8)->porep_id(), ApiVersion::V1_1_0);
    ADD_FAILURE() << "a 32 GiB porep_id accepted for a 2 KiB proof";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("StackedDrg32GiBV1_1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2KiB"), std::string::npos) << e.what();
  }
  // Synthetic and NI-PoRep need API 1.2 (upstream ApiFeature::first_supported_version).
  EXPECT_THROW(porep_config_with_id(*porep_config(10), five, ApiVersion::V1_1_0), std::invalid_argument);
  EXPECT_THROW(porep_config_with_id(*porep_config(15), five, ApiVersion::V1_0_0), std::invalid_argument);
  // Without an explicit id the registered one is used.
  EXPECT_EQ(porep_config(10)->porep_id()[0], 10);
}
