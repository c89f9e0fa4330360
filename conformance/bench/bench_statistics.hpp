#pragma once
// The bench judges rounds with the statistics a timeline's drift uses too
// (metrics/comparison_statistics.hpp); these are their names in the bench.
#include "metrics/comparison_statistics.hpp"

namespace s3fault::bench {

using metrics::band_as_log_ratio;
using metrics::band_hides_min_change;
using metrics::better;
using metrics::compare_rounds;
using metrics::comparison;
using metrics::comparison_sides;
using metrics::format_percent;
using metrics::judging_rules;
using metrics::max_advised_rounds;
using metrics::noise_band_percent;
using metrics::p_value_text;
using metrics::round_to;
using metrics::spread;
using metrics::summarize;

} // namespace s3fault::bench
