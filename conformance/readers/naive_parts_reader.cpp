// naive-parts: how many real readers fetch a multipart object, bug included.
//
//   GET ?partNumber=1 ──> N = x-amz-mp-parts-count (missing: 1) ──> GET ?partNumber=2..N
//   every body appended to the output as it comes; no Content-Range, no length, no ETag check
//
// A store that omits the parts count makes this return part 1 alone, with ok == true: the
// silent truncation the gate exists to show. Only a non-2xx status or a transport failure (a
// body cut short of its Content-Length included) fails it. No retries.
#include "conformance/readers/reader_support.hpp"
#include "text/text.hpp"

namespace s3fault::readers {
namespace {

class naive_parts_read {
public:
  naive_parts_read(const read_request& request, std::ostream& log)
      : request_(request), log_(log, "naive-parts"), runner_(request, log_) {}

  read_result run() {
    std::string error;
    if (!output_.open(request_.output_path, error)) {
      return failed_read(error, runner_, 0);
    }
    try {
      client_.emplace(request_.client);
    } catch (const std::exception& problem) {
      return failed_read(problem.what(), runner_, 0);
    }
    std::uint64_t parts_count = 1;
    for (std::uint64_t part = 1; part <= parts_count; ++part) {
      const auto response = read_part(part, error);
      if (!error.empty()) {
        return failed_read(error, runner_, appended_);
      }
      if (part == 1 && !take_parts_count(response, parts_count, error)) {
        return failed_read(error, runner_, appended_);
      }
    }
    return finished_read(runner_, appended_);
  }

private:
  /// Sends GET ?partNumber=`part` once and appends its body; `error` set when it failed.
  client::response read_part(std::uint64_t part, std::string& error) {
    const std::string what = "GET partNumber=" + std::to_string(part);
    range_writer writer(output_, appended_);
    client::get_options options;
    options.part_number = static_cast<long>(part);
    options.read = writer.read_options();
    runner_.count_request();
    auto response = client_->get_object(request_.bucket, request_.key, options);
    appended_ += writer.written();
    std::string line = what + " -> " + summarize(response);
    if (part == 1 && response.ok() && !response.has_header("x-amz-mp-parts-count")) {
      line += ", no parts count (taken as 1)";
    }
    log_.line(line);
    if (!response.ok()) {
      error =
          what + ": " + (writer.problem().empty() ? describe_status(response) : writer.problem());
    }
    return response;
  }

  /// The part count as the header says; a missing header is taken as one part (the bug).
  bool take_parts_count(const client::response& first, std::uint64_t& parts_count,
                        std::string& error) {
    const auto header = first.header("x-amz-mp-parts-count");
    if (!header) {
      return true;
    }
    const auto count = text::parse_whole_number(*header);
    if (!count || *count == 0) {
      error = "GET partNumber=1: unreadable x-amz-mp-parts-count '" + std::string(*header) + "'";
      return false;
    }
    parts_count = *count;
    return true;
  }

  const read_request& request_;
  request_log log_;
  request_runner runner_;
  output_file output_;
  std::optional<client::s3_client> client_;
  std::uint64_t appended_ = 0;
};

} // namespace

read_result read_naive_parts(const read_request& request, std::ostream& log) {
  return naive_parts_read(request, log).run();
}

} // namespace s3fault::readers
