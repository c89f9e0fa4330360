// Whose fault a failed upload is: the client's (malformed framing, an early end, a reset) or,
// when the store stopped taking the body first, not the client's.
#include "proxy/client_body_failure.hpp"

#include <boost/asio/error.hpp>
#include <gtest/gtest.h>

namespace s3fault::proxy {
namespace {

relay_outcome read_failed(error_code error) {
  relay_outcome outcome;
  outcome.read_error = error;
  return outcome;
}

TEST(ClientBodyFailure, MalformedFramingIsTheClientsIncompleteBody) {
  relay_outcome outcome;
  outcome.framing_error = "chunk size is not a hex number";
  const auto failure = client_body_failure_of(outcome);
  ASSERT_TRUE(failure);
  EXPECT_TRUE(failure->answerable);
  EXPECT_EQ(failure->code, "IncompleteBody");
  EXPECT_EQ(failure->what, "client sent malformed chunked framing: chunk size is not a hex number");
}

TEST(ClientBodyFailure, AnEarlyEndIsTheClientsIncompleteBody) {
  const auto failure = client_body_failure_of(read_failed(boost::asio::error::eof));
  ASSERT_TRUE(failure);
  EXPECT_TRUE(failure->answerable);
  EXPECT_EQ(failure->code, "IncompleteBody");
  EXPECT_TRUE(failure->what.starts_with("client ended the request body early")) << failure->what;
}

TEST(ClientBodyFailure, AClientThatIsGoneGetsNoAnswer) {
  for (const error_code error : {make_error_code(boost::asio::error::connection_reset),
                                 make_error_code(boost::asio::error::timed_out)}) {
    const auto failure = client_body_failure_of(read_failed(error));
    ASSERT_TRUE(failure);
    EXPECT_FALSE(failure->answerable);
    EXPECT_TRUE(failure->what.starts_with("client went away during the upload: ")) << failure->what;
  }
}

TEST(ClientBodyFailure, NotTheClientsWhenItsBodyCameWholeOrTheStoreFailedFirst) {
  relay_outcome whole;
  whole.reached_end = true;
  EXPECT_FALSE(client_body_failure_of(whole));
  relay_outcome store_first = read_failed(boost::asio::error::eof);
  store_first.write_error = make_error_code(boost::asio::error::broken_pipe);
  EXPECT_FALSE(client_body_failure_of(store_first));
}

} // namespace
} // namespace s3fault::proxy
