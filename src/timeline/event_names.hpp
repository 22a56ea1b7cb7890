#pragma once
// The TIMELINE event names (docs/PROTOCOL.md §3), in one place for the
// engine that writes them and the analysis that reads them back.
namespace cuzk::timeline::events {

// Per partition (and the Rust daemon's whole-job form).
inline constexpr char kSynthStart[] = "SYNTH_START";
inline constexpr char kSynthEnd[] = "SYNTH_END";
inline constexpr char kGpuQueue[] = "GPU_QUEUE";
inline constexpr char kChanSend[] = "CHAN_SEND";  // older logs' GPU_QUEUE
inline constexpr char kGpuPickup[] = "GPU_PICKUP";
inline constexpr char kGpuStart[] = "GPU_START";
inline constexpr char kGpuEnd[] = "GPU_END";
// Ours.
inline constexpr char kGpuLock[] = "GPU_LOCK";
inline constexpr char kGpuUnlock[] = "GPU_UNLOCK";
inline constexpr char kParseStart[] = "PARSE_START";
inline constexpr char kParseEnd[] = "PARSE_END";
inline constexpr char kSrsLoadStart[] = "SRS_LOAD_START";
inline constexpr char kSrsLoadEnd[] = "SRS_LOAD_END";
inline constexpr char kPceLoadStart[] = "PCE_LOAD_START";
inline constexpr char kPceLoadEnd[] = "PCE_LOAD_END";
inline constexpr char kPceExtractStart[] = "PCE_EXTRACT_START";
inline constexpr char kPceExtractEnd[] = "PCE_EXTRACT_END";
inline constexpr char kAssembleStart[] = "ASSEMBLE_START";
inline constexpr char kAssembleEnd[] = "ASSEMBLE_END";
inline constexpr char kBatch[] = "BATCH";
inline constexpr char kCancel[] = "CANCEL";

}  // namespace cuzk::timeline::events
