#include "proxy/proxy_identity.hpp"

namespace s3fault::proxy {

nlohmann::json identity_json(const proxy_identity& identity) {
  return {{"version", identity.version},
          {"listen", identity.listen},
          {"upstream", identity.upstream},
          {"seed", identity.seed}};
}

} // namespace s3fault::proxy
