#include "runtime/shard.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace s3fault::runtime {
namespace {

std::optional<unsigned> whole_number(const std::string& text) {
  unsigned value = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) {
    return std::nullopt;
  }
  return value;
}

shard checked(unsigned index, unsigned count, std::string source) {
  if (count == 0) {
    throw std::invalid_argument(source + ": the number of shards is 0; it must be at least 1");
  }
  if (index < 1 || index > count) {
    throw std::invalid_argument(source + ": shard " + std::to_string(index) + " is outside 1.." +
                                std::to_string(count));
  }
  return {index, count, std::move(source)};
}

shard from_text(const std::string& text) {
  const auto slash = text.find('/');
  const auto index = whole_number(text.substr(0, slash));
  const auto count =
      slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count) {
    throw std::invalid_argument("--shard " + text +
                                ": expected K/N (shard K of N, 1 <= K <= N, e.g. 2/3) or auto");
  }
  return checked(*index, *count, "--shard " + text);
}

struct launcher {
  const char* rank;
  const char* size; // nullptr: the size comes from --shards
  const char* name;
};

constexpr launcher launchers[] = {
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OpenMPI's mpirun"},
    {"PMI_RANK", "PMI_SIZE", "MPICH or Slurm's PMI"},
    {"SLURM_PROCID", "SLURM_NTASKS", "a Slurm srun step"},
    {"JOB_COMPLETION_INDEX", nullptr, "a Kubernetes Indexed Job"},
};

/// The shard one launcher's variables name, or nullopt when its rank variable is unset.
std::optional<shard> from_launcher(const launcher& l, unsigned shards_option,
                                   const environment_lookup& environment) {
  const auto rank_text = environment(l.rank);
  if (!rank_text) {
    return std::nullopt;
  }
  const auto rank = whole_number(*rank_text);
  std::string source = std::string(l.rank) + "=" + *rank_text;
  if (!rank) {
    throw std::invalid_argument("--shard auto: " + source + " (" + l.name +
                                ") is not a whole number");
  }
  std::optional<unsigned> size;
  if (l.size != nullptr) {
    const auto size_text = environment(l.size);
    if (!size_text || !(size = whole_number(*size_text))) {
      throw std::invalid_argument(
          "--shard auto: " + source + " (" + l.name + ") but " + l.size +
          (size_text ? "=" + *size_text + " is not a whole number" : " is not set"));
    }
    source += " " + std::string(l.size) + "=" + *size_text;
  } else if (shards_option == 0) {
    throw std::invalid_argument("--shard auto: " + source + " (" + l.name +
                                ") gives the index only; say how many shards with --shards N");
  } else {
    size = shards_option;
    source += " --shards " + std::to_string(shards_option);
  }
  return checked(*rank + 1, *size, "--shard auto: " + source);
}

} // namespace

std::string shard::text() const {
  return std::to_string(index) + "/" + std::to_string(count);
}

environment_lookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') {
      return std::nullopt;
    }
    return std::string(value);
  };
}

shard parse_shard(const std::string& text, unsigned shards_option,
                  const environment_lookup& environment) {
  if (text != "auto") {
    return from_text(text);
  }
  std::vector<shard> found;
  for (const auto& l : launchers) {
    if (auto part = from_launcher(l, shards_option, environment)) {
      found.push_back(std::move(*part));
    }
  }
  if (found.empty()) {
    throw std::invalid_argument(
        "--shard auto: no launcher's variables are set (OMPI_COMM_WORLD_RANK/SIZE, "
        "PMI_RANK/SIZE, SLURM_PROCID/NTASKS, or JOB_COMPLETION_INDEX with --shards N); "
        "give --shard K/N instead");
  }
  std::string sources;
  for (const auto& part : found) {
    sources += (sources.empty() ? "" : "; ") + part.source.substr(part.source.find(": ") + 2);
    if (part.index != found.front().index || part.count != found.front().count) {
      throw std::invalid_argument("--shard auto: the launchers' variables disagree: " +
                                  found.front().source.substr(found.front().source.find(": ") + 2) +
                                  " is shard " + found.front().text() + ", " +
                                  part.source.substr(part.source.find(": ") + 2) + " is shard " +
                                  part.text());
    }
  }
  return {found.front().index, found.front().count, sources};
}

std::uint64_t share_of(std::uint64_t total, const shard& part) {
  return total / part.count + (part.index <= total % part.count ? 1 : 0);
}

std::string expand_shard_path(const std::string& path, const shard& part) {
  std::string expanded;
  const std::string placeholder = "{shard}";
  std::size_t from = 0;
  for (auto at = path.find(placeholder); at != std::string::npos;
       at = path.find(placeholder, from)) {
    expanded += path.substr(from, at - from) + std::to_string(part.index);
    from = at + placeholder.size();
  }
  return expanded + path.substr(from);
}

} // namespace s3fault::runtime
