// The admin API's bearer token: only the exact "Bearer TOKEN" passes.
#include "proxy/admin_token.hpp"

#include <gtest/gtest.h>

using s3fault::proxy::admin_token_matches;

TEST(AdminToken, OnlyTheExactBearerTokenPasses) {
  const std::string token = "0123456789abcdef-secret";
  EXPECT_TRUE(admin_token_matches("Bearer " + token, token));
  EXPECT_FALSE(admin_token_matches("Bearer " + token + "x", token));
  EXPECT_FALSE(admin_token_matches("Bearer " + token.substr(1), token));
  EXPECT_FALSE(admin_token_matches("bearer " + token, token));
  EXPECT_FALSE(admin_token_matches(token, token));
  EXPECT_FALSE(admin_token_matches("", token));
  EXPECT_FALSE(admin_token_matches("Bearer ", ""));
}
