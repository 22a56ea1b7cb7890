// TIMELINE log lines (any daemon log, damaged or cut anywhere), through the
// whole analysis `cuzk-bench timeline analyze` runs: parse, model, runs,
// verdicts, and the text and JSON reports.
#include "fuzz_common.hpp"
#include "timeline/analyze.hpp"
#include "timeline/parse.hpp"
#include "timeline/report.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  fuzz::refusals_expected([&] {
    timeline::Log log = timeline::parse_text(fuzz::text(data, size));
    timeline::Timeline t = timeline::build_timeline(std::move(log));
    timeline::format_analysis(t, false);
    timeline::dump_json(timeline::analysis_json(t));
    timeline::format_jobs(t, false);
  });
  return 0;
}
