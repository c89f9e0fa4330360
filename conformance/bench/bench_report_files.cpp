// The CSV and JSON files of a bench, and reading them back as a baseline.
#include "conformance/bench/bench_reports.hpp"
#include "runtime/build_info.hpp"

#include "conformance/bench/bench_run_record.hpp"
#include "conformance/bench/bench_timeline.hpp"
#include "conformance/bench/bench_verdict.hpp"
#include "conformance/bench/comparison_text.hpp"
#include "text/http_date.hpp"
#include "text/text.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace s3fault::bench {
namespace {

using json = nlohmann::json;

std::string csv_field(std::string text) {
  for (auto& c : text) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  if (text.find_first_of(",\"") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (const char c : text) {
    quoted += c;
    if (c == '"') {
      quoted += '"';
    }
  }
  return quoted + "\"";
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

/// Per-round values in the CSV: "1234.50;1201.12;1250.00".
std::string rounds_text(figure f, const std::vector<double>& rounds) {
  std::vector<std::string> values;
  for (const double v : rounds) {
    values.push_back(format_figure(f, v));
  }
  return text::join(values, ";");
}

std::string p_value_field(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", p);
  return text;
}

// The columns of one compared figure, after its key: KEY_reference, KEY_delta_percent, ...
constexpr const char* comparison_suffixes[] = {"_reference",
                                               "_delta_percent",
                                               "_interval_low_percent",
                                               "_interval_high_percent",
                                               "_p_value",
                                               "_detectable_drop_percent",
                                               "_detectable_rise_percent",
                                               "_change",
                                               "_rounds_needed",
                                               "_not_judged"};
constexpr std::size_t comparison_field_count = std::size(comparison_suffixes);

std::vector<std::string> comparison_fields(figure f, const comparison& c) {
  if (!c.judged) {
    std::vector<std::string> fields(comparison_field_count);
    fields[0] = c.baseline_rounds > 0 ? format_figure(f, c.baseline) : "";
    fields[7] = std::string(change_word(f, c));
    fields[9] = c.not_judged;
    return fields;
  }
  return {format_figure(f, c.baseline),
          format_percent(c.delta_percent, true),
          format_percent(c.interval_low_percent, true),
          format_percent(c.interval_high_percent, true),
          p_value_field(c.p_value),
          format_percent(c.detectable_drop_percent, false),
          format_percent(c.detectable_rise_percent, false),
          std::string(change_word(f, c)),
          c.rounds_needed ? std::to_string(*c.rounds_needed) : "",
          ""};
}

// The settings a baseline is checked against, one CSV column each (the same on every row).
constexpr const char* settings_columns[] = {"duration_ms",     "count",  "rounds",  "objects",
                                            "part_size_bytes", "verify", "control", "mix"};

std::vector<std::string> settings_values(const bench_settings& settings) {
  return {settings.count ? "" : std::to_string(settings.duration.count()),
          settings.count ? std::to_string(*settings.count) : "",
          std::to_string(settings.rounds),
          std::to_string(settings.objects),
          std::to_string(settings.part_size),
          settings.verify ? "true" : "false",
          settings.control ? "true" : "false",
          describe_mix(settings.mix)};
}

json comparison_json(figure f, const comparison& c) {
  json entry{{"rounds", {c.baseline_rounds, c.current_rounds}},
             {"judged", c.judged},
             {"change", change_word(f, c)}};
  if (c.baseline_rounds > 0) {
    entry["reference"] = figure_json(f, c.baseline);
  }
  if (c.current_rounds > 0) {
    entry["now"] = figure_json(f, c.current);
  }
  if (!c.judged) {
    entry["not_judged"] = c.not_judged;
    return entry;
  }
  entry["delta_percent"] = round_to(c.delta_percent, 1);
  entry["ratio_percent"] = round_to(c.ratio_percent, 1);
  entry["interval_percent"] = {round_to(c.interval_low_percent, 1),
                               round_to(c.interval_high_percent, 1)};
  entry["p_value"] = c.p_value;
  entry["detectable_drop_percent"] = round_to(c.detectable_drop_percent, 1);
  entry["detectable_rise_percent"] = round_to(c.detectable_rise_percent, 1);
  entry["flagged"] = c.flagged;
  entry["regression"] = c.regression;
  entry["conclusive"] = c.conclusive;
  if (!c.conclusive) {
    entry["rounds_needed"] = c.rounds_needed ? json(*c.rounds_needed) : json(nullptr);
  }
  return entry;
}

std::vector<figure> file_figures(const bench_report& report) {
  std::vector<figure> chosen;
  const bool store = any_store_figures(report.summaries);
  for (std::size_t i = 0; i < figure_count; ++i) {
    if (!info(figure_at(i)).from_store || store) {
      chosen.push_back(figure_at(i));
    }
  }
  return chosen;
}

/// Which shards the report holds, how its runs were timed, and (bench merge) its parts.
void add_sharding(json& document, const bench_report& report) {
  const auto& settings = *report.settings;
  document["shards"] = report.shards;
  if (settings.shard.sharded() && report.parts.empty()) {
    document["shard"] = {{"index", settings.shard.index},
                         {"count", settings.shard.count},
                         {"source", settings.shard.source}};
  }
  document["start_at"] =
      settings.start_at ? json(text::format_iso8601(*settings.start_at)) : json(nullptr);
  document["paced"] = report.paced;
  document["clock_offset_ms"] =
      report.clock_offset ? json(report.clock_offset->count()) : json(nullptr);
  if (report.clock_offset) {
    document["clock_offset_uncertainty_ms"] = report.clock_offset_uncertainty.count();
  }
  if (!report.clock_offset_problem.empty()) {
    document["clock_offset_problem"] = report.clock_offset_problem;
  }
  if (report.parts.empty()) {
    return;
  }
  document["parts"] = json::array();
  for (const auto& part : report.parts) {
    document["parts"].push_back(
        {{"file", part.file},
         {"shard", part.shard.text()},
         {"source", part.shard.source},
         {"endpoint", part.endpoint},
         {"started_at", part.started_at},
         {"clock_offset_ms",
          part.clock_offset ? json(part.clock_offset->count()) : json(nullptr)}});
  }
  document["merge_notes"] = report.notes;
}

} // namespace

namespace {

/// What a comparison's CSV columns say: what was compared with, and the verdict, on every row.
std::vector<std::string> reference_fields(const bench_report& report,
                                          const bench_verdict& verdict) {
  const std::string what = report.reference == reference_kind::baseline
                               ? "baseline " + report.baseline_source
                               : "store " + report.stores.front().name;
  return {what, std::string(outcome_name(verdict.decided)),
          text::join(report.baseline_mismatches, "; ")};
}

std::vector<std::string> csv_header(const bench_report& report, const std::vector<figure>& figures,
                                    bool noise) {
  std::vector<std::string> header{"store",       "operation",    "size", "size_bytes",
                                  "concurrency", "stored_bytes", "runs"};
  for (const auto f : figures) {
    const std::string key(info(f).key);
    header.insert(header.end(), {key, key + "_min", key + "_max"});
  }
  for (const auto f : compared_figures()) {
    header.push_back(std::string(info(f).key) + "_rounds");
  }
  if (noise) {
    for (const auto f : compared_figures()) {
      header.push_back(std::string(info(f).key) + "_noise_percent");
    }
  }
  if (report.reference != reference_kind::none) {
    for (const auto f : compared_figures()) {
      for (const char* suffix : comparison_suffixes) {
        header.push_back(std::string(info(f).key) + suffix);
      }
    }
    header.insert(header.end(), {"reference", "verdict", "baseline_mismatch"});
  }
  header.insert(header.end(), std::begin(settings_columns), std::end(settings_columns));
  header.insert(header.end(), {"first_error", "note"});
  return header;
}

std::vector<std::string> csv_row(const bench_report& report, const cell_summary& summary,
                                 const std::vector<figure>& figures, bool noise,
                                 const std::vector<std::string>& reference) {
  const auto& c = summary.measured;
  std::vector<std::string> fields{report.stores[summary.store].name,
                                  std::string(to_string(c.op)),
                                  format_size(c.size),
                                  std::to_string(c.size),
                                  std::to_string(c.concurrency),
                                  std::to_string(c.stored),
                                  std::to_string(summary.runs)};
  for (const auto f : figures) {
    const auto& s = summary.figures[static_cast<std::size_t>(f)];
    fields.insert(fields.end(),
                  {s ? format_figure(f, s->median) : "", s ? format_figure(f, s->min) : "",
                   s ? format_figure(f, s->max) : ""});
  }
  for (const auto f : compared_figures()) {
    fields.push_back(rounds_text(f, summary.rounds[static_cast<std::size_t>(f)]));
  }
  if (noise) {
    for (const auto f : compared_figures()) {
      const auto& band = summary.noise_percent[static_cast<std::size_t>(f)];
      fields.push_back(band ? format_percent(*band, false) : "");
    }
  }
  if (report.reference != reference_kind::none) {
    for (const auto f : compared_figures()) {
      const auto& judged = summary.versus[static_cast<std::size_t>(f)];
      auto more =
          judged ? comparison_fields(f, *judged) : std::vector<std::string>(comparison_field_count);
      fields.insert(fields.end(), more.begin(), more.end());
    }
    fields.insert(fields.end(), reference.begin(), reference.end());
  }
  for (auto& value : settings_values(*report.settings)) {
    fields.push_back(std::move(value));
  }
  fields.push_back(summary.first_error);
  fields.push_back(summary.note);
  return fields;
}

} // namespace

std::string csv_report(const bench_report& report) {
  const auto figures = file_figures(report);
  const bool noise = any_noise(report.summaries);
  const auto reference = report.reference != reference_kind::none
                             ? reference_fields(report, verdict_of(report))
                             : std::vector<std::string>{};
  std::ostringstream out;
  auto write_row = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      out << (i == 0 ? "" : ",") << csv_field(fields[i]);
    }
    out << "\n";
  };
  write_row(csv_header(report, figures, noise));
  for (const auto& summary : report.summaries) {
    write_row(csv_row(report, summary, figures, noise, reference));
  }
  return out.str();
}

namespace {

json settings_json(const bench_settings& settings) {
  json about;
  about["operations"] = json::array();
  for (const auto op : settings.operations) {
    about["operations"].push_back(to_string(op));
  }
  about["sizes"] = settings.sizes;
  about["concurrency"] = settings.concurrencies;
  about["prefill"] = settings.prefill;
  if (settings.count) {
    about["count"] = *settings.count;
  } else {
    about["duration_ms"] = settings.duration.count();
  }
  about["rounds"] = settings.rounds;
  about["objects"] = settings.objects;
  about["part_size"] = settings.part_size;
  about["verify"] = settings.verify;
  about["verification"] = verification_text(settings);
  about["control"] = settings.control;
  about["alpha"] = settings.judging.alpha;
  about["warmup_ms"] = settings.warmup.count();
  if (!settings.mix.empty()) {
    about["mix"] = describe_mix(settings.mix);
  }
  about["min_change_percent"] = settings.judging.min_change_percent;
  about["allow_inconclusive"] = settings.allow_inconclusive;
  about["stores"] = json::array();
  for (const auto& store : settings.stores) {
    about["stores"].push_back({{"name", store.name},
                               {"pids", store.pids},
                               {"cgroup", store.cgroup ? store.cgroup->describe() : ""}});
  }
  about["seed"] = settings.seed;
  about["attempts"] = settings.max_attempts;
  return about;
}

json cell_json(const bench_report& report, const cell_summary& summary) {
  const auto& c = summary.measured;
  json entry{{"operation", to_string(c.op)}, {"size", format_size(c.size)}, {"size_bytes", c.size},
             {"concurrency", c.concurrency}, {"stored_bytes", c.stored},    {"runs", summary.runs}};
  if (const auto& name = report.stores[summary.store].name; !name.empty()) {
    entry["store"] = name;
  }
  entry["figures"] = json::object();
  for (std::size_t i = 0; i < figure_count; ++i) {
    const auto f = figure_at(i);
    const std::string key(info(f).key);
    if (const auto& s = summary.figures[i]) {
      entry["figures"][key] = {{"median", figure_json(f, s->median)},
                               {"min", figure_json(f, s->min)},
                               {"max", figure_json(f, s->max)}};
    }
    if (const auto& band = summary.noise_percent[i]) {
      entry["noise_percent"][key] = round_to(*band, 1);
    }
    if (!summary.rounds[i].empty() && info(f).compared) {
      json rounds = json::array();
      for (const double value : summary.rounds[i]) {
        rounds.push_back(figure_json(f, value));
      }
      entry["rounds"][key] = rounds;
    }
    if (const auto& cmp = summary.versus[i]) {
      entry["versus"][key] = comparison_json(f, *cmp);
    }
  }
  for (const auto& [key, text] :
       {std::pair{"first_error", &summary.first_error},
        std::pair{"store_error", &summary.store_error}, std::pair{"note", &summary.note}}) {
    if (!text->empty()) {
      entry[key] = *text;
    }
  }
  return entry;
}

/// What was compared with, how, and what was decided: the verdict's words and, per figure,
/// the regressions, the figures not judged and those that could not tell.
void add_verdict(json& document, const bench_report& report) {
  const auto verdict = verdict_of(report);
  document["verdict"] = {{"outcome", outcome_name(verdict.decided)},
                         {"headline", verdict.headline},
                         {"details", verdict.details},
                         {"allow_inconclusive", report.settings->allow_inconclusive}};
  if (report.reference == reference_kind::none) {
    return;
  }
  const auto& rules = report.settings->judging;
  document["reference"] = report.reference == reference_kind::baseline
                              ? json{{"kind", "baseline"}, {"name", report.baseline_source}}
                              : json{{"kind", "store"}, {"name", report.stores.front().name}};
  document["statistics"] = {
      {"method", "two-sample Student's t on the logarithms of the per-round values (pooled "
                 "variance, two-sided)"},
      {"alpha", rules.alpha},
      {"power", rules.power},
      {"min_change_percent", rules.min_change_percent}};
  json regressions = json::array();
  json not_judged = json::array();
  json inconclusive = json::array();
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        const auto what = compared_figure_text(report, summary, f);
        if (c.regression && report.reference == reference_kind::baseline) {
          regressions.push_back(what + " " + format_percent(c.delta_percent, true) + "%");
        } else if (!c.judged) {
          not_judged.push_back(what + ": " + c.not_judged);
        } else if (!c.conclusive) {
          inconclusive.push_back(
              {{"figure", what},
               {"detectable_drop_percent", round_to(c.detectable_drop_percent, 1)},
               {"detectable_rise_percent", round_to(c.detectable_rise_percent, 1)},
               {"rounds", {c.baseline_rounds, c.current_rounds}},
               {"rounds_needed", c.rounds_needed ? json(*c.rounds_needed) : json(nullptr)}});
        }
      },
      [](const cell_summary&) {});
  document["regressions"] = regressions;
  document["not_judged"] = not_judged;
  document["inconclusive"] = inconclusive;
  if (report.reference == reference_kind::baseline) {
    document["baseline"] = report.baseline_source;
    document["baseline_mismatches"] = report.baseline_mismatches;
  }
}

} // namespace

std::string json_report(const bench_report& report) {
  json document;
  document["tool"] = "s3fault bench";
  document["format"] = report_format;
  document["version"] = std::string(runtime::build_version());
  if (report.stores.size() == 1) {
    document["endpoint"] = report.stores.front().endpoint;
    document["bucket"] = report.stores.front().bucket;
  }
  document["stores"] = json::array();
  for (const auto& store : report.stores) {
    document["stores"].push_back(
        {{"name", store.name}, {"endpoint", store.endpoint}, {"bucket", store.bucket}});
  }
  document["started_at"] = report.started_at;
  document["seconds"] = round_to(report.seconds, 1);
  document["settings"] = settings_json(*report.settings);
  add_sharding(document, report);
  document["cells"] = json::array();
  for (const auto& summary : report.summaries) {
    document["cells"].push_back(cell_json(report, summary));
  }
  document["runs"] = json::array();
  for (const auto& run : report.runs) {
    document["runs"].push_back(run_record_json(run, report.stores.at(run.store).name));
  }
  document["interrupted"] = report.interrupted;
  if (report.timeline) {
    const auto rules = drift_rules_of(*report.settings);
    document["timeline"] = metrics::timeline_json(*report.timeline);
    document["drift"] =
        metrics::drift_json(metrics::judge_drift(report.timeline->intervals, rules), rules);
  }
  add_verdict(document, report);
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

/// A file without per-round values (older versions) gives each median as its only round.
void medians_as_rounds(baseline_cell& cell_figures) {
  for (std::size_t i = 0; i < figure_count; ++i) {
    if (cell_figures.rounds[i].empty() && cell_figures.figures[i]) {
      cell_figures.rounds[i].push_back(cell_figures.figures[i]->median);
    }
  }
}

template <class T> std::optional<T> json_value(const json& object, const char* key) {
  if (!object.contains(key)) {
    return std::nullopt;
  }
  try {
    return object[key].get<T>();
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

baseline_settings json_settings(const json& about) {
  baseline_settings settings;
  settings.duration_ms = json_value<std::int64_t>(about, "duration_ms");
  settings.count = json_value<std::uint64_t>(about, "count");
  settings.rounds = json_value<unsigned>(about, "rounds");
  settings.objects = json_value<unsigned>(about, "objects");
  settings.part_size = json_value<std::uint64_t>(about, "part_size");
  settings.verify = json_value<bool>(about, "verify");
  settings.control = json_value<bool>(about, "control");
  settings.mix = json_value<std::string>(about, "mix").value_or("");
  return settings;
}

std::optional<baseline> parse_json_baseline(const std::string& text, const std::string& source,
                                            std::string& error) {
  const auto document = json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object() || !document.contains("cells") ||
      !document["cells"].is_array()) {
    error = source + ": not the JSON of s3fault bench (no \"cells\" array)";
    return std::nullopt;
  }
  baseline result;
  result.source = source;
  if (document.contains("settings") && document["settings"].is_object()) {
    result.settings = json_settings(document["settings"]);
  }
  std::size_t index = 0;
  for (const auto& entry : document["cells"]) {
    ++index;
    const std::string where = source + ": cells[" + std::to_string(index - 1) + "]";
    if (!entry.is_object() || !entry.contains("operation") || !entry["operation"].is_string() ||
        !entry.contains("size_bytes") || !entry["size_bytes"].is_number_unsigned() ||
        !entry.contains("concurrency") || !entry["concurrency"].is_number_unsigned()) {
      error = where + ": needs operation, size_bytes and concurrency";
      return std::nullopt;
    }
    const auto op = parse_operation(entry["operation"].get<std::string>());
    if (!op) {
      const std::string name = entry["operation"].get<std::string>();
      error = where + ": operation '" + name + "' is unknown " + operation_choices(name);
      return std::nullopt;
    }
    baseline_cell cell_figures;
    cell_figures.store = json_value<std::string>(entry, "store").value_or("");
    cell_figures.op = *op;
    cell_figures.size = entry["size_bytes"].get<std::uint64_t>();
    cell_figures.concurrency = entry["concurrency"].get<unsigned>();
    cell_figures.stored = json_value<std::uint64_t>(entry, "stored_bytes").value_or(0);
    if (entry.contains("figures") && entry["figures"].is_object()) {
      for (const auto& [key, value] : entry["figures"].items()) {
        const auto f = figure_named(key);
        if (!f || !value.is_object() || !value.contains("median") || !value["median"].is_number()) {
          continue; // figures of a newer version are ignored
        }
        spread s;
        s.median = value["median"].get<double>();
        s.min = value.value("min", s.median);
        s.max = value.value("max", s.median);
        s.samples = entry.value("runs", std::size_t{1});
        cell_figures.figures[static_cast<std::size_t>(*f)] = s;
      }
    }
    if (entry.contains("noise_percent") && entry["noise_percent"].is_object()) {
      for (const auto& [key, value] : entry["noise_percent"].items()) {
        if (const auto f = figure_named(key); f && value.is_number()) {
          cell_figures.noise_percent[static_cast<std::size_t>(*f)] = value.get<double>();
        }
      }
    }
    if (entry.contains("rounds") && entry["rounds"].is_object()) {
      for (const auto& [key, values] : entry["rounds"].items()) {
        const auto f = figure_named(key);
        if (!f || !values.is_array()) {
          continue;
        }
        auto& rounds = cell_figures.rounds[static_cast<std::size_t>(*f)];
        for (const auto& value : values) {
          if (!value.is_number()) {
            error = where + ": rounds." + key + " holds a value that is not a number";
            return std::nullopt;
          }
          rounds.push_back(value.get<double>());
        }
      }
    }
    medians_as_rounds(cell_figures);
    result.cells.push_back(cell_figures);
  }
  return result;
}

std::optional<double> number_field(const std::string& text) {
  if (text.empty()) {
    return std::nullopt;
  }
  std::size_t used = 0;
  try {
    const double value = std::stod(text, &used);
    if (used == text.size()) {
      return value;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

template <class Field> baseline_settings csv_settings(const Field& field) {
  const auto whole = [&](const char* name) -> std::optional<std::uint64_t> {
    const auto value = number_field(field(name));
    return value && *value >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*value))
                                : std::nullopt;
  };
  const auto flag = [&](const char* name) -> std::optional<bool> {
    const std::string text = field(name);
    if (text == "true" || text == "false") {
      return text == "true";
    }
    return std::nullopt;
  };
  baseline_settings settings;
  if (const auto ms = whole("duration_ms")) {
    settings.duration_ms = static_cast<std::int64_t>(*ms);
  }
  settings.count = whole("count");
  if (const auto rounds = whole("rounds")) {
    settings.rounds = static_cast<unsigned>(*rounds);
  }
  if (const auto objects = whole("objects")) {
    settings.objects = static_cast<unsigned>(*objects);
  }
  settings.part_size = whole("part_size_bytes");
  settings.verify = flag("verify");
  settings.control = flag("control");
  settings.mix = field("mix");
  return settings;
}

std::optional<baseline> parse_csv_baseline(const std::string& text, const std::string& source,
                                           std::string& error) {
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line)) {
    error = source + ": empty";
    return std::nullopt;
  }
  const auto header = split_csv_line(line);
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    column[header[i]] = i;
  }
  for (const char* needed : {"operation", "size_bytes", "concurrency"}) {
    if (column.count(needed) == 0) {
      error = source + ": line 1: no \"" + std::string(needed) +
              "\" column (not the CSV of s3fault bench)";
      return std::nullopt;
    }
  }
  baseline result;
  result.source = source;
  std::size_t line_number = 1;
  while (std::getline(lines, line)) {
    ++line_number;
    if (line.empty() || line == "\r") {
      continue;
    }
    const auto fields = split_csv_line(line);
    auto field = [&](const std::string& name) -> std::string {
      const auto found = column.find(name);
      return found != column.end() && found->second < fields.size() ? fields[found->second] : "";
    };
    const std::string where = source + ": line " + std::to_string(line_number);
    const auto op = parse_operation(field("operation"));
    const auto size = number_field(field("size_bytes"));
    const auto concurrency = number_field(field("concurrency"));
    if (!op && !field("operation").empty()) {
      error = where + ": operation '" + field("operation") + "' is unknown " +
              operation_choices(field("operation"));
      return std::nullopt;
    }
    if (!op || !size || !concurrency) {
      error = where + ": needs a known operation, size_bytes and concurrency";
      return std::nullopt;
    }
    baseline_cell cell_figures;
    cell_figures.store = field("store");
    cell_figures.op = *op;
    cell_figures.size = static_cast<std::uint64_t>(*size);
    cell_figures.concurrency = static_cast<unsigned>(*concurrency);
    cell_figures.stored =
        static_cast<std::uint64_t>(number_field(field("stored_bytes")).value_or(0));
    const auto runs = number_field(field("runs"));
    for (std::size_t i = 0; i < figure_count; ++i) {
      const std::string key(info(figure_at(i)).key);
      const auto median = number_field(field(key));
      if (!median) {
        continue;
      }
      spread s;
      s.median = *median;
      s.min = number_field(field(key + "_min")).value_or(*median);
      s.max = number_field(field(key + "_max")).value_or(*median);
      s.samples = static_cast<std::size_t>(runs.value_or(1));
      cell_figures.figures[i] = s;
      cell_figures.noise_percent[i] = number_field(field(key + "_noise_percent"));
      const std::string rounds = field(key + "_rounds");
      std::size_t start = 0;
      while (!rounds.empty() && start <= rounds.size()) {
        const auto end = std::min(rounds.find(';', start), rounds.size());
        const auto value = number_field(rounds.substr(start, end - start));
        if (!value) {
          error = where + ": " + key + "_rounds: '" + rounds + "' is not numbers separated by ;";
          return std::nullopt;
        }
        cell_figures.rounds[i].push_back(*value);
        start = end + 1;
      }
    }
    medians_as_rounds(cell_figures);
    if (result.cells.empty()) {
      result.settings = csv_settings(field);
    }
    result.cells.push_back(cell_figures);
  }
  return result;
}

} // namespace

std::optional<baseline> parse_baseline(const std::string& text, const std::string& source,
                                       std::string& error) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    error = source + ": empty";
    return std::nullopt;
  }
  return text[first] == '{' ? parse_json_baseline(text, source, error)
                            : parse_csv_baseline(text, source, error);
}

std::optional<baseline> load_baseline(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot be read";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_baseline(text.str(), path, error);
}

std::optional<baseline> load_baseline_of_store(const std::string& argument, std::string& error) {
  // FILE:NAME names a store, unless the whole argument is a file (a path may hold a colon).
  std::string path = argument;
  std::string store;
  std::error_code ignored;
  if (const auto colon = argument.rfind(':');
      colon != std::string::npos && !std::filesystem::is_regular_file(argument, ignored)) {
    path = argument.substr(0, colon);
    store = argument.substr(colon + 1);
    if (!store_name_usable(store)) {
      error = argument + ": '" + store + "' after the colon is not a store's name (" +
              store_name_rule + ")";
      return std::nullopt;
    }
  }
  auto earlier = load_baseline(path, error);
  if (earlier && !choose_baseline_store(*earlier, store, error)) {
    return std::nullopt;
  }
  return earlier;
}

} // namespace s3fault::bench
