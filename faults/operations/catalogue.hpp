#pragma once
// Every S3 operation as AWS's S3 service model describes it on the wire: the table in
// catalogue.generated.inc, written from the model by generate_catalogue.py. Names, aliases and
// the sets a rule may name (op=@multipart) are read from it; operation_match.hpp picks a
// request's operation with it. Pure: no sockets.
#include "faults/operations/s3_operation.generated.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {

/// What the request path names: nothing (`/`), a bucket, an object, or a fixed path of the
/// operation's own (WriteGetObjectResponse's `/WriteGetObjectResponse`).
enum class path_form : std::uint8_t { service, bucket, object, literal };

/// Whether the operation moves an object's bytes: the model's streaming payloads.
enum class object_body : std::uint8_t { none, read, write };

struct operation_shape {
  std::string_view name;
  s3_operation operation; // for an alias, the current operation it stands for
  std::string_view method;
  path_form form;
  std::string_view literal_path;              // for path_form::literal
  std::vector<std::string_view> subresources; // query names without a value: "uploads", "acl"
  std::vector<std::pair<std::string_view, std::string_view>> query_values; // "list-type=2"
  std::vector<std::string_view> query;   // required query parameters: "uploadId"
  std::vector<std::string_view> headers; // required headers, lower case
  object_body body = object_body::none;
  bool alias = false; // a deprecated name the wire cannot tell from `operation`'s
};

/// Every entry of the model, aliases included, in the model's (alphabetical) order.
const std::vector<operation_shape>& catalogue();
/// The entry of a current operation; null for Other.
const operation_shape* shape_of(s3_operation operation);

std::string_view operation_name(s3_operation operation);
/// Case-insensitive; an alias gives the operation it stands for. nullopt for an unknown name.
std::optional<s3_operation> parse_operation(std::string_view name);
/// Every operation, in enum order, Other last.
const std::vector<s3_operation>& all_operations();

/// The operations of a named set ("@multipart", "@read", "@write"; case-insensitive), or
/// nullopt for an unknown set.
std::optional<std::vector<s3_operation>> operation_set(std::string_view name);
/// The sets operation_set knows, with what each holds, for help texts and errors.
const std::vector<std::pair<std::string_view, std::string_view>>& operation_sets();

/// The request as the model shapes it, for people: "PUT /BUCKET/KEY?partNumber=&uploadId=
/// + x-amz-copy-source".
std::string request_form(const operation_shape& shape);

/// The lower-case names of the headers that tell one operation from another
/// (x-amz-copy-source, ...): the union of the catalogue's required headers.
const std::vector<std::string_view>& distinguishing_headers();
/// Every query name an operation of the model takes as its sub-resource ("acl", "uploads").
const std::vector<std::string_view>& model_subresources();

} // namespace s3fault::faults
