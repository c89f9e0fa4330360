#pragma once
// Where the client connects: a store address as every command reads it (text/endpoint.hpp).
#include "text/endpoint.hpp"

namespace s3fault::client {

using endpoint = text::http_endpoint;

} // namespace s3fault::client
