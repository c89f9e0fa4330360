#pragma once
// The objects an audit reads: one of each shape the contract talks about, uploaded by the audit
// itself (single PUT, multipart with an uneven last part, multipart with equal parts, zero bytes,
// one byte) so that every expected byte, size and ETag is known before the first check runs.
#include "conformance/audit/audit_types.hpp"
#include "conformance/client/s3_client.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace s3fault::audit {

/// The store cannot be used for an audit at all (no connection, credentials refused, fixtures
/// rejected): the audit exits 2 with this message.
class store_unusable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct fixture {
  std::string name; // "multipart-uneven"
  std::string key;
  std::string data;
  std::vector<std::uint64_t> part_sizes; // empty for a single PUT
  std::vector<std::string> part_etags;   // UploadPart responses, as sent
  std::string upload_etag;               // PUT response, or CompleteMultipartUpload <ETag>
  std::string etag;                      // HEAD after upload, as sent
  std::string last_modified;             // HEAD after upload, as sent
  std::string content_type;              // what the audit uploaded with
  /// The upload's exchanges (PUT, or UploadPart... and CompleteMultipartUpload), for the checks
  /// that judge what the store answered to them.
  std::vector<exchange_record> upload_exchanges;

  bool multipart() const { return !part_sizes.empty(); }
  std::uint64_t size() const { return data.size(); }
  std::size_t part_count() const { return part_sizes.size(); }
  /// Offset of the first byte of part `number` (1-based).
  std::uint64_t part_offset(std::size_t number) const;
  /// The bytes of part `number` (1-based).
  std::string_view part_bytes(std::size_t number) const;
};

/// Sizes of the fixtures; defaults follow AWS's 5 MiB minimum part size so any store takes them.
struct fixture_plan {
  std::uint64_t part_size = 5ull * 1024 * 1024;
  std::uint64_t uneven_tail = 1024 * 1024 + 4133; // the last part of multipart-uneven
  std::uint64_t single_size = 1024 * 1024 + 17;
  std::uint32_t seed = 20261129; // object bytes are a seeded pseudo-random stream
};

struct fixture_set {
  std::string bucket;
  bool bucket_created = false; // removed afterwards only when the audit created it
  std::string prefix;          // every fixture key starts with it
  fixture single;              // one PUT
  fixture multipart_uneven;    // 3 parts: part_size, part_size, uneven_tail
  fixture multipart_equal;     // 2 parts of part_size
  fixture empty;               // zero bytes, one PUT
  fixture one_byte;            // one byte, one PUT

  std::vector<const fixture*> all() const;
  std::vector<const fixture*> multipart() const;
};

/// Creates the bucket (unless `bucket_given`) and uploads every fixture under `prefix`. Throws
/// store_unusable naming the step and the store's answer when any of it fails; whatever was
/// created before the failure is removed again.
fixture_set create_fixtures(client::s3_client& client, const std::string& bucket, bool bucket_given,
                            const std::string& prefix, const fixture_plan& plan = {});

/// Deletes the fixtures and extra keys, then the bucket if the audit created it. Returns the
/// problems (empty when everything went), so the report can say what was left behind.
std::vector<std::string> remove_fixtures(client::s3_client& client, const fixture_set& fixtures,
                                         const std::vector<std::string>& extra_keys = {});

/// `count` pseudo-random bytes from `seed` (the same bytes for the same seed, on every machine).
std::string seeded_bytes(std::uint64_t count, std::uint32_t seed);

} // namespace s3fault::audit
