#include "conformance/bench/bench_fixtures.hpp"

#include "conformance/bench/workload.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace s3fault::bench {
namespace {

std::string describe_answer(const client::response& answer) {
  return answer.describe();
}

} // namespace

bench_fixtures::bench_fixtures(const bench_settings& settings, const fixture_content& content,
                               const store_target& store, std::string bucket, bool bucket_given,
                               std::string prefix)
    : settings_(settings), content_(content), store_(store), bucket_(std::move(bucket)),
      bucket_given_(bucket_given), prefix_(std::move(prefix)) {}

std::string bench_fixtures::single_prefix(std::uint64_t size) const {
  return prefix_ + std::to_string(size) + "/obj-";
}

std::string bench_fixtures::single_key(std::uint64_t size, std::uint64_t index) const {
  return single_prefix(size) + std::to_string(index % objects());
}

std::string bench_fixtures::multipart_key(std::uint64_t size, std::uint64_t index) const {
  return prefix_ + std::to_string(size) + "/mp-" + std::to_string(index % objects());
}

std::string bench_fixtures::multipart_put_key(std::uint64_t size, std::uint64_t index) const {
  return prefix_ + format_size(size) + "/mpput-" + std::to_string(index % objects());
}

std::string bench_fixtures::put_key(std::uint64_t size, std::uint64_t index) const {
  return prefix_ + std::to_string(size) + "/put-" + std::to_string(index % objects());
}

std::string bench_fixtures::delete_key(std::uint64_t size, unsigned worker, std::uint64_t n) const {
  return prefix_ + std::to_string(size) + "/del-" + std::to_string(worker) + "-" +
         std::to_string(n);
}

void bench_fixtures::upload_single(client::s3_client& store, std::uint64_t size,
                                   std::uint64_t index) const {
  const auto key = single_key(size, index);
  client::put_options options;
  options.payload = client::payload_signing::unsigned_payload;
  const auto answer =
      store.put_object(bucket_, key, client::body_source::from_view(content(size, index)), options);
  if (!answer.ok()) {
    throw std::runtime_error("writing fixture " + key + ": " + describe_answer(answer));
  }
}

void bench_fixtures::upload_multipart(client::s3_client& store, std::uint64_t size,
                                      std::uint64_t index) const {
  const auto key = multipart_key(size, index);
  const auto created = store.create_multipart_upload(bucket_, key);
  if (!created.ok()) {
    throw std::runtime_error("starting the multipart upload of fixture " + key + ": " +
                             describe_answer(created.raw));
  }
  const auto& upload_id = created.value->upload_id;
  const auto bytes = content(size, index);
  std::vector<client::completed_part> parts;
  client::upload_part_options part_options;
  part_options.payload = client::payload_signing::unsigned_payload;
  for (std::uint64_t offset = 0; offset < size; offset += settings_.part_size) {
    const int number = static_cast<int>(parts.size()) + 1;
    const auto answer = store.upload_part(
        bucket_, key, upload_id, number,
        client::body_source::from_view(bytes.substr(offset, settings_.part_size)), part_options);
    if (!answer.ok()) {
      store.abort_multipart_upload(bucket_, key, upload_id);
      throw std::runtime_error("uploading part " + std::to_string(number) + " of fixture " + key +
                               ": " + describe_answer(answer));
    }
    client::completed_part part;
    part.part_number = number;
    part.etag = std::string(answer.header("ETag").value_or(""));
    parts.push_back(std::move(part));
  }
  const auto completed = store.complete_multipart_upload(bucket_, key, upload_id, parts);
  if (!completed.ok()) {
    store.abort_multipart_upload(bucket_, key, upload_id);
    throw std::runtime_error("completing the multipart upload of fixture " + key + ": " +
                             describe_answer(completed.raw));
  }
}

void bench_fixtures::create(const std::vector<cell>& cells, unsigned parallel) {
  client::s3_client store(store_.client);
  if (!bucket_given_) {
    const auto answer = store.create_bucket(bucket_);
    if (!answer.ok()) {
      throw std::runtime_error("creating bucket " + bucket_ + ": " + describe_answer(answer));
    }
    bucket_created_ = true;
  }
  // Which objects the cells' workloads read: single-PUT ones and multipart ones, per size.
  std::set<std::uint64_t> single_sizes;
  std::set<std::uint64_t> multipart_sizes;
  for (const auto& c : cells) {
    for (const auto op : operations_of(c, settings_)) {
      const auto needs = op.workload().fixtures();
      if (needs.single_objects) {
        single_sizes.insert(c.size);
      }
      if (needs.multipart_objects) {
        multipart_sizes.insert(c.size);
      }
    }
  }
  struct upload {
    std::uint64_t size;
    std::uint64_t index;
    bool multipart;
  };
  std::vector<upload> uploads;
  for (const auto size : single_sizes) {
    for (unsigned i = 0; i < objects(); ++i) {
      uploads.push_back({size, i, false});
    }
  }
  for (const auto size : multipart_sizes) {
    for (unsigned i = 0; i < objects(); ++i) {
      uploads.push_back({size, i, true});
    }
  }
  upload_all(uploads.size(), parallel, [&](client::s3_client& store, std::size_t i) {
    const auto& item = uploads[i];
    if (item.multipart) {
      upload_multipart(store, item.size, item.index);
    } else {
      upload_single(store, item.size, item.index);
    }
  });
}

void bench_fixtures::upload_all(
    std::size_t count, unsigned parallel,
    const std::function<void(client::s3_client&, std::size_t)>& upload) const {
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::string failure;
  auto uploader = [&] {
    try {
      client::s3_client own(store_.client);
      for (std::size_t i = next++; i < count; i = next++) {
        {
          const std::lock_guard lock(failure_mutex);
          if (!failure.empty()) {
            return;
          }
        }
        upload(own, i);
      }
    } catch (const std::exception& error) {
      const std::lock_guard lock(failure_mutex);
      if (failure.empty()) {
        failure = error.what();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, parallel); ++t) {
    threads.emplace_back(uploader);
  }
  for (auto& thread : threads) {
    thread.join();
  }
  if (!failure.empty()) {
    throw std::runtime_error(failure);
  }
}

void bench_fixtures::fill_to(std::uint64_t bytes, unsigned parallel) {
  if (bytes <= filled_) {
    return;
  }
  const std::uint64_t remaining = bytes - filled_;
  const std::uint64_t count = (remaining + filler_size - 1) / filler_size;
  upload_all(static_cast<std::size_t>(count), parallel,
             [&](client::s3_client& store, std::size_t i) {
               const std::uint64_t length = std::min(filler_size, remaining - i * filler_size);
               const std::uint64_t n = fillers_ + i;
               const auto key = prefix_ + "fill/" + std::to_string(n);
               client::put_options options;
               options.payload = client::payload_signing::unsigned_payload;
               const auto answer = store.put_object(
                   bucket_, key, client::body_source::from_view(content(length, n)), options);
               if (!answer.ok()) {
                 throw std::runtime_error("writing filler " + key +
                                          " for --prefill: " + describe_answer(answer));
               }
             });
  fillers_ += count;
  filled_ = bytes;
}

void bench_fixtures::remove(const std::function<void(const std::string&)>& problem) {
  client::s3_client store(store_.client);
  std::string token;
  for (;;) {
    client::list_objects_options options;
    options.prefix = prefix_;
    options.continuation_token = token;
    const auto listed = store.list_objects_v2(bucket_, options);
    if (!listed.ok()) {
      problem("listing " + prefix_ + " in " + bucket_ + ": " + describe_answer(listed.raw));
      return;
    }
    for (const auto& object : listed.value->contents) {
      const auto answer = store.delete_object(bucket_, object.key);
      if (!answer.ok()) {
        problem("deleting " + object.key + ": " + describe_answer(answer));
      }
    }
    if (!listed.value->is_truncated || listed.value->next_continuation_token.empty()) {
      break;
    }
    token = listed.value->next_continuation_token;
  }
  if (bucket_created_) {
    const auto answer = store.delete_bucket(bucket_);
    if (!answer.ok()) {
      problem("deleting bucket " + bucket_ + ": " + describe_answer(answer));
    }
  }
}

} // namespace s3fault::bench
