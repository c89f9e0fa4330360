// The transport against a scripted raw-socket server: framing (short bodies above all), keep-
// alive and reconnects, deadlines, body targets and hashes, TLS verification and SNI.
#include "conformance/client/http_connection.hpp"
#include "conformance/client/s3_client.hpp"
#include "conformance/s3/content_hash.hpp"
#include "conformance/s3/hashing.hpp"
#include "tests/conformance/client/scripted_server.hpp"

#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace s3fault::client {
namespace {

using namespace std::chrono_literals;
using test::get_request;
using test::http_response;
using test::options_for;
using test::peer;
using test::scripted_server;

/// Serves every request of a connection with `reply` until the client closes.
scripted_server::handler serve_all(std::string reply) {
  return [reply](peer& connection, int) {
    while (!connection.read_request().empty()) {
      connection.send(reply);
    }
  };
}

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "s3fault_client_" + std::to_string(::getpid()) + "_" + name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(HttpConnection, ReadsStatusReasonHeadersInOrderAndBody) {
  const std::string head = "HTTP/1.1 200 Fine Thanks\r\n"
                           "x-amz-request-id: R1\r\n"
                           "ETag: \"abc\"\r\n"
                           "X-Dup: 1\r\n"
                           "x-dup: 2\r\n"
                           "Content-Length: 5\r\n"
                           "\r\n";
  scripted_server server(serve_all(head + "hello"));
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  ASSERT_FALSE(out.failure) << out.describe();
  EXPECT_EQ(out.status, 200u);
  EXPECT_EQ(out.reason, "Fine Thanks");
  const header_list expected = {{"x-amz-request-id", "R1"},
                                {"ETag", "\"abc\""},
                                {"X-Dup", "1"},
                                {"x-dup", "2"},
                                {"Content-Length", "5"}};
  EXPECT_EQ(out.headers, expected);
  EXPECT_EQ(out.raw_head, head);
  EXPECT_EQ(out.body, "hello");
  EXPECT_EQ(out.body_bytes, 5u);
  EXPECT_EQ(out.content_length, 5u);
  EXPECT_EQ(out.header("etag"), "\"abc\"");
  EXPECT_EQ(out.headers_named("X-DUP"), (std::vector<std::string_view>{"1", "2"}));
  EXPECT_FALSE(out.has_header("x-amz-mp-parts-count"));
  EXPECT_GT(out.timing.first_byte.count(), 0);
  EXPECT_GE(out.timing.total, out.timing.first_byte);
}

TEST(HttpConnection, SendsTheRequestHeadExactlyAsGiven) {
  scripted_server server(serve_all(http_response(200, "OK", "")));
  http_connection connection(options_for(server));
  s3::http_request_view request{
      "PUT",
      "/b/a%20b?partNumber=1",
      {{"Host", "h"}, {"X-odd-CASE", "v  with  spaces"}, {"Content-Length", "3"}}};
  const auto out = connection.exchange(request, body_source::from_string("abc"), {});
  ASSERT_TRUE(out.ok()) << out.describe();
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0], "PUT /b/a%20b?partNumber=1 HTTP/1.1\r\n"
                                  "Host: h\r\n"
                                  "X-odd-CASE: v  with  spaces\r\n"
                                  "Content-Length: 3\r\n"
                                  "\r\n"
                                  "abc");
}

TEST(HttpConnection, ShortBodyAgainstContentLengthIsReportedWithTheBytesThatArrived) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
    // Closing here: 10 of 100 bytes.
  });
  http_connection connection(options_for(server));
  read_options read;
  read.sha256 = true;
  const auto out = connection.exchange(get_request(server), {}, read);
  EXPECT_EQ(out.status, 200u);
  EXPECT_EQ(out.content_length, 100u);
  EXPECT_EQ(out.failure.ec, client_errc::short_body);
  EXPECT_EQ(out.failure.where, stage::read_body);
  EXPECT_EQ(out.failure.body_bytes, 10u);
  EXPECT_EQ(out.body_bytes, 10u);
  EXPECT_EQ(out.body, "0123456789");
  EXPECT_EQ(out.body_sha256, s3::sha256_hex("0123456789"));
  EXPECT_NE(out.failure.message.find("10 of 100"), std::string::npos) << out.failure.message;
  EXPECT_FALSE(out.ok());
  EXPECT_FALSE(connection.is_open());
}

TEST(HttpConnection, ShortBodyThroughTheS3ClientToo) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send("HTTP/1.1 206 Partial Content\r\nContent-Length: 100\r\n"
                    "Content-Range: bytes 0-99/1000\r\n\r\n0123456789");
  });
  s3_client client({.endpoint = server.url(), .anonymous = true});
  get_options get;
  get.part_number = 1;
  const auto out = client.get_object("b", "k", get);
  EXPECT_EQ(out.status, 206u);
  EXPECT_EQ(out.failure.ec, client_errc::short_body);
  EXPECT_EQ(out.body_bytes, 10u);
}

TEST(HttpConnection, ChunkedBodiesAreDecodedAndACutChunkedBodyIsReported) {
  scripted_server server([](peer& connection, int index) {
    connection.read_request();
    if (index == 0) {
      connection.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                      "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
      connection.wait_for_close();
    } else {
      connection.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel");
    }
  });
  http_connection connection(options_for(server));
  const auto whole = connection.exchange(get_request(server), {}, {});
  ASSERT_TRUE(whole.ok()) << whole.describe();
  EXPECT_TRUE(whole.chunked);
  EXPECT_EQ(whole.body, "hello world");
  connection.close();
  const auto cut = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(cut.failure.ec, client_errc::incomplete_chunked);
  EXPECT_EQ(cut.body_bytes, 3u);
}

TEST(HttpConnection, BodyUntilCloseEndsCleanlyAtEof) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it");
  });
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(out.body, "all of it");
  EXPECT_FALSE(out.content_length);
  EXPECT_FALSE(connection.is_open());
}

TEST(HttpConnection, KeepsTheConnectionAliveAcrossRequests) {
  scripted_server server(serve_all(http_response(200, "OK", "x")));
  http_connection connection(options_for(server));
  for (int i = 0; i < 5; ++i) {
    const auto out = connection.exchange(get_request(server), {}, {});
    ASSERT_TRUE(out.ok()) << out.describe();
    EXPECT_EQ(out.connection_reused, i > 0);
    if (i > 0) {
      EXPECT_EQ(out.timing.connect.count(), 0);
    }
  }
  EXPECT_EQ(connection.counters().connections_opened, 1u);
  EXPECT_EQ(connection.counters().exchanges, 5u);
  EXPECT_EQ(connection.counters().reused, 4u);
  EXPECT_EQ(server.connections(), 1);
}

TEST(HttpConnection, ReconnectsWhenTheStoreClosedTheIdleConnection) {
  // The server answers one request per connection and closes, without saying so.
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send(http_response(200, "OK", "x"));
  });
  http_connection connection(options_for(server));
  for (int i = 0; i < 3; ++i) {
    const auto first = connection.exchange(get_request(server), {}, {});
    ASSERT_TRUE(first.ok()) << first.describe();
    EXPECT_FALSE(first.connection_reused);
    // Once the server has closed, the liveness check (not the retry) must see it.
    ASSERT_TRUE(server.wait_finished(i + 1));
  }
  EXPECT_EQ(connection.counters().connections_opened, 3u);
  EXPECT_EQ(connection.counters().stale_retries, 0u);
}

TEST(HttpConnection, RetriesOnceWhenAReusedConnectionDiesBeforeAnyResponseByte) {
  // Connection 0 answers the first request, reads the second and closes without answering:
  // the keep-alive race. Connection 1 answers.
  scripted_server server([](peer& connection, int index) {
    connection.read_request();
    if (index == 0) {
      connection.send(http_response(200, "OK", "first"));
      connection.read_request();
      return;
    }
    connection.send(http_response(200, "OK", "second"));
    connection.wait_for_close();
  });
  http_connection connection(options_for(server));
  ASSERT_TRUE(connection.exchange(get_request(server), {}, {}).ok());
  const auto out = connection.exchange(get_request(server), {}, {});
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(out.body, "second");
  EXPECT_TRUE(out.retried_on_new_connection);
  EXPECT_EQ(connection.counters().stale_retries, 1u);
  EXPECT_EQ(connection.counters().connections_opened, 2u);
}

TEST(HttpConnection, NoRetryWhenDisabled) {
  scripted_server server([](peer& connection, int index) {
    connection.read_request();
    if (index == 0) {
      connection.send(http_response(200, "OK", "first"));
      connection.read_request();
    }
  });
  auto options = options_for(server);
  options.retry_on_stale_connection = false;
  http_connection connection(options);
  ASSERT_TRUE(connection.exchange(get_request(server), {}, {}).ok());
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.failure.ec, client_errc::closed_before_response);
  EXPECT_EQ(out.failure.where, stage::wait_first_byte);
  EXPECT_FALSE(out.head_received());
}

TEST(HttpConnection, FirstByteDeadline) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.wait_for_close();
  });
  auto options = options_for(server);
  options.timeouts.first_byte = 200ms;
  http_connection connection(options);
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.failure.ec, boost::beast::error::timeout);
  EXPECT_EQ(out.failure.where, stage::wait_first_byte);
  EXPECT_GE(out.timing.total, 150ms);
  EXPECT_LT(out.timing.total, 5s);
}

TEST(HttpConnection, BodyIdleDeadlineKeepsWhatArrived) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n12345");
    connection.wait_for_close();
  });
  auto options = options_for(server);
  options.timeouts.read_idle = 200ms;
  http_connection connection(options);
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.status, 200u);
  EXPECT_EQ(out.failure.ec, boost::beast::error::timeout);
  EXPECT_EQ(out.failure.where, stage::read_body);
  EXPECT_EQ(out.failure.body_bytes, 5u);
  EXPECT_EQ(out.body, "12345");
}

TEST(HttpConnection, WriteDeadlineWhenTheStoreStopsReading) {
  // The store reads the head, then nothing until the exchange is over: the body fills the
  // socket buffers and stops.
  std::promise<void> exchange_over;
  std::shared_future<void> over = exchange_over.get_future().share();
  scripted_server server([over](peer& connection, int) {
    connection.read_some_bytes();
    over.wait();
  });
  auto options = options_for(server);
  options.timeouts.write = 200ms;
  http_connection connection(options);
  const std::string body(64 * 1024 * 1024, 'x');
  s3::http_request_view request{
      "PUT", "/b/k", {{"Host", "h"}, {"Content-Length", std::to_string(body.size())}}};
  const auto out = connection.exchange(request, body_source::from_view(body), {});
  EXPECT_EQ(out.failure.ec, boost::beast::error::timeout) << out.describe();
  EXPECT_EQ(out.failure.where, stage::send_request);
  EXPECT_NE(out.failure.message.find("no progress for"), std::string::npos) << out.describe();
  EXPECT_FALSE(out.ok());
  exchange_over.set_value();
}

TEST(HttpConnection, ClosedInsideTheHeadKeepsTheRawBytes) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send("HTTP/1.1 200 OK\r\nContent-Le");
  });
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.failure.ec, client_errc::closed_inside_head);
  EXPECT_EQ(out.raw_head, "HTTP/1.1 200 OK\r\nContent-Le");
  EXPECT_FALSE(out.head_received());
}

TEST(HttpConnection, MalformedHeadIsABadResponse) {
  scripted_server server([](peer& connection, int) {
    connection.read_request();
    connection.send("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n");
  });
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.failure.ec, client_errc::bad_response);
  EXPECT_EQ(out.failure.where, stage::read_head);
}

TEST(HttpConnection, ABodyInPiecesAfterTheHeadArrivesWholeAndKeepsTheConnection) {
  // The body comes in sends of its own, so that reads of it do not also hold the head.
  std::string body(1024 * 1024 + 7, '\0');
  for (std::size_t i = 0; i < body.size(); ++i) {
    body[i] = static_cast<char>((i * 131) >> 3);
  }
  scripted_server server([&body](peer& connection, int) {
    while (!connection.read_request().empty()) {
      connection.send("HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) +
                      "\r\n\r\n");
      std::this_thread::sleep_for(20ms);
      connection.send(std::string_view(body).substr(0, 1000));
      std::this_thread::sleep_for(20ms);
      connection.send(std::string_view(body).substr(1000));
    }
  });
  http_connection connection(options_for(server));
  read_options read;
  read.sha256 = true;
  for (int i = 0; i < 2; ++i) {
    const auto out = connection.exchange(get_request(server), {}, read);
    ASSERT_TRUE(out.ok()) << out.describe();
    EXPECT_EQ(out.body_bytes, body.size());
    EXPECT_EQ(out.body_sha256, s3::sha256_hex(body));
    EXPECT_EQ(out.bytes_after_message, 0u);
    EXPECT_EQ(out.connection_reused, i == 1);
  }
}

/// The store answers a Content-Length 5 body, "hello", and sends "EXTRA" after it, in the
/// given pieces (a pause between them, so that they tend to arrive in reads of their own).
void expect_bytes_past_the_body_counted(std::vector<std::string> pieces) {
  scripted_server server([pieces](peer& connection, int) {
    connection.read_request();
    for (const auto& piece : pieces) {
      connection.send(piece);
      std::this_thread::sleep_for(20ms);
    }
    connection.wait_for_close();
  });
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(out.body, "hello");
  EXPECT_EQ(out.bytes_after_message, 5u);
  EXPECT_FALSE(connection.is_open());
}

TEST(HttpConnection, BytesPastABodyThatCameAfterTheHeadAreCountedToo) {
  expect_bytes_past_the_body_counted(
      {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", "hel", "loEXTRA"});
}

TEST(HttpConnection, BytesPastTheFramedBodyAreCountedAndTheConnectionDropped) {
  expect_bytes_past_the_body_counted({"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA"});
}

TEST(HttpConnection, HeadResponsesHaveNoBody) {
  scripted_server server(serve_all("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"));
  http_connection connection(options_for(server));
  s3::http_request_view head{"HEAD", "/b/k", {{"Host", "h"}}};
  for (int i = 0; i < 2; ++i) {
    const auto out = connection.exchange(head, {}, {});
    ASSERT_TRUE(out.ok()) << out.describe();
    EXPECT_EQ(out.content_length, 100u);
    EXPECT_EQ(out.body_bytes, 0u);
  }
  EXPECT_EQ(connection.counters().connections_opened, 1u);
}

TEST(HttpConnection, InterimResponsesAreSkippedAndRecorded) {
  scripted_server server(
      serve_all("HTTP/1.1 100 Continue\r\n\r\n" + http_response(200, "OK", "x")));
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(out.interim_statuses, std::vector<unsigned>{100});
  EXPECT_EQ(out.body, "x");
}

TEST(HttpConnection, MemoryCapStopsTheRead) {
  scripted_server server(serve_all(http_response(200, "OK", std::string(1000, 'a'))));
  http_connection connection(options_for(server));
  read_options read;
  read.target = body_target::memory(100);
  const auto out = connection.exchange(get_request(server), {}, read);
  EXPECT_EQ(out.failure.ec, client_errc::body_over_cap);
  EXPECT_EQ(out.body.size(), 100u);
}

TEST(HttpConnection, CallbackFileAndDiscardTargetsWithHashes) {
  const std::string body(300 * 1024, 'z');
  scripted_server server(serve_all(http_response(200, "OK", body)));
  http_connection connection(options_for(server));

  std::string collected;
  read_options read;
  read.target = body_target::callback([&](std::string_view chunk) {
    collected.append(chunk);
    return true;
  });
  read.md5 = true;
  read.sha256 = true;
  read.content_hash = true;
  auto out = connection.exchange(get_request(server), {}, read);
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(collected, body);
  EXPECT_TRUE(out.body.empty());
  EXPECT_EQ(out.body_md5, s3::md5_hex(body));
  EXPECT_EQ(out.body_sha256, s3::sha256_hex(body));
  EXPECT_EQ(out.body_content_hash, s3::content_hash(body));

  const std::string path = temp_path("target.bin");
  read.target = body_target::file(path);
  out = connection.exchange(get_request(server), {}, read);
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(read_file(path), body);
  std::remove(path.c_str());

  read.target = body_target::discard();
  out = connection.exchange(get_request(server), {}, read);
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(out.body_bytes, body.size());
  EXPECT_TRUE(out.body.empty());
  EXPECT_EQ(connection.counters().connections_opened, 1u);
}

TEST(HttpConnection, ACallbackCanStopTheRead) {
  scripted_server server(serve_all(http_response(200, "OK", "abcdef")));
  http_connection connection(options_for(server));
  read_options read;
  read.target = body_target::callback([](std::string_view) { return false; });
  const auto out = connection.exchange(get_request(server), {}, read);
  EXPECT_EQ(out.failure.ec, client_errc::sink_aborted);
  EXPECT_FALSE(connection.is_open());
}

TEST(HttpConnection, ErrorBodiesGoToMemoryNotToTheFile) {
  const std::string error_xml = "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code>"
                                "<Message>nope</Message><RequestId>req-1</RequestId></Error>";
  scripted_server server(serve_all(http_response(404, "Not Found", error_xml)));
  s3_client client({.endpoint = server.url(), .anonymous = true});
  const std::string path = temp_path("never.bin");
  get_options get;
  get.read.target = body_target::file(path);
  const auto out = client.get_object("b", "k", get);
  EXPECT_EQ(out.status, 404u);
  EXPECT_FALSE(out.failure);
  EXPECT_EQ(out.body, error_xml);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, "NoSuchKey");
  EXPECT_EQ(out.error->request_id, "req-1");
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "the target file must not be created for a 404";
}

TEST(HttpConnection, StreamsAFileRangeAsTheRequestBody) {
  const std::string path = temp_path("source.bin");
  std::string content;
  for (int i = 0; i < 700 * 1024; ++i) {
    content += static_cast<char>('a' + i % 26);
  }
  std::ofstream(path, std::ios::binary) << content;
  scripted_server server(serve_all(http_response(200, "OK", "")));
  s3_client client({.endpoint = server.url(), .anonymous = true});
  const auto out = client.put_object("b", "k", body_source::from_file(path, 1000, 600 * 1024));
  ASSERT_TRUE(out.ok()) << out.describe();
  const auto request = server.requests().at(0);
  const auto head_end = request.find("\r\n\r\n") + 4;
  EXPECT_EQ(request.substr(head_end), content.substr(1000, 600 * 1024));
  EXPECT_NE(request.find("Content-Length: 614400\r\n"), std::string::npos);
  std::remove(path.c_str());
}

TEST(HttpConnection, AnAnswerBeforeTheWholeBodyWasSentIsKeptButNotASuccess) {
  // The store reads the head only, answers 413 and closes with the body still coming.
  scripted_server server([](peer& connection, int) {
    std::string head;
    while (head.find("\r\n\r\n") == std::string::npos) {
      const auto bytes = connection.read_some_bytes();
      if (bytes.empty()) {
        return;
      }
      head += bytes;
    }
    connection.send(http_response(413, "Payload Too Large",
                                  "<Error><Code>EntityTooLarge</Code></Error>",
                                  "Connection: close\r\n"));
  });
  http_connection connection(options_for(server));
  const std::string body(32 * 1024 * 1024, 'x');
  s3::http_request_view request{
      "PUT", "/b/k", {{"Host", "h"}, {"Content-Length", std::to_string(body.size())}}};
  const auto out = connection.exchange(request, body_source::from_view(body), {});
  EXPECT_EQ(out.failure.where, stage::send_request) << out.describe();
  EXPECT_FALSE(out.ok());
  EXPECT_EQ(out.status, 413u) << out.describe();
  EXPECT_NE(out.body.find("EntityTooLarge"), std::string::npos);
  EXPECT_FALSE(connection.is_open());
}

TEST(HttpConnection, MissingBodyFileIsAFailureBeforeSending) {
  scripted_server server(serve_all(http_response(200, "OK", "")));
  s3_client client({.endpoint = server.url(), .anonymous = true});
  const auto out = client.put_object("b", "k", body_source::from_file(temp_path("absent")));
  EXPECT_EQ(out.failure.ec, client_errc::local_io);
  EXPECT_EQ(out.failure.where, stage::build_request);
  EXPECT_EQ(server.connections(), 0);
}

TEST(HttpConnection, ConnectionRefusedIsAConnectFailure) {
  int port;
  {
    scripted_server server(serve_all(""));
    port = server.port();
  }
  connection_options options;
  options.target = endpoint::parse("http://127.0.0.1:" + std::to_string(port));
  http_connection connection(options);
  const auto out = connection.exchange({"GET", "/", {{"Host", "h"}}}, {}, {});
  EXPECT_EQ(out.failure.where, stage::connect);
  EXPECT_EQ(out.failure.ec, boost::asio::error::connection_refused);
}

class TlsConnection : public testing::Test {
protected:
  void SetUp() override {
    cert_path_ = temp_path("cert.pem");
    context_ = test::make_self_signed_context(cert_path_);
  }
  void TearDown() override {
    SSL_CTX_free(context_);
    std::remove(cert_path_.c_str());
  }
  std::string cert_path_;
  SSL_CTX* context_ = nullptr;
};

TEST_F(TlsConnection, InsecureAcceptsASelfSignedCertificate) {
  std::string seen_name;
  scripted_server server(
      [&](peer& connection, int) {
        seen_name = connection.server_name();
        while (!connection.read_request().empty()) {
          connection.send(http_response(200, "OK", "secret"));
        }
      },
      context_);
  auto options = options_for(server);
  options.tls.insecure = true;
  http_connection connection(options);
  for (int i = 0; i < 2; ++i) {
    const auto out = connection.exchange(get_request(server), {}, {});
    ASSERT_TRUE(out.ok()) << out.describe();
    EXPECT_EQ(out.body, "secret");
  }
  EXPECT_EQ(connection.counters().connections_opened, 1u);
  connection.close();
  EXPECT_EQ(seen_name, "") << "no SNI for an IP literal";
}

// Regression: bodies past the first 256 KiB write were silently dropped over TLS (Beast's
// ssl_stream wrote only an empty leading buffer, and async_write took 0 bytes as done).
TEST_F(TlsConnection, UploadsEveryBodyByteInSeveralChunks) {
  for (const std::size_t size :
       {std::size_t{1}, std::size_t{256 * 1024}, std::size_t{1024 * 1024 + 17}}) {
    std::string received;
    scripted_server server(
        [&](peer& connection, int) {
          received = connection.read_request();
          if (!received.empty()) {
            connection.send(http_response(200, "OK", ""));
          }
        },
        context_);
    auto options = options_for(server);
    options.tls.insecure = true;
    http_connection connection(options);
    std::string body(size, 'b');
    body.back() = 'z';
    s3::http_request_view request{
        "PUT", "/b/k", {{"Host", "h"}, {"Content-Length", std::to_string(body.size())}}};
    const auto out = connection.exchange(request, body_source::from_view(body), {});
    ASSERT_TRUE(out.ok()) << size << ": " << out.describe();
    ASSERT_GE(received.size(), body.size());
    EXPECT_EQ(received.substr(received.size() - body.size()), body) << size;
  }
}

TEST_F(TlsConnection, VerificationRejectsAnUnknownCertificate) {
  scripted_server server(serve_all(http_response(200, "OK", "")), context_);
  http_connection connection(options_for(server));
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.failure.where, stage::tls_handshake);
  EXPECT_FALSE(out.head_received());
}

TEST_F(TlsConnection, VerifiesAgainstACaFileWithSni) {
  std::string seen_name;
  scripted_server server(
      [&](peer& connection, int) {
        seen_name = connection.server_name();
        while (!connection.read_request().empty()) {
          connection.send(http_response(200, "OK", "verified"));
        }
      },
      context_);
  auto options = options_for(server);
  options.tls.ca_file = cert_path_;
  options.tls.server_name = "localhost";
  http_connection connection(options);
  const auto out = connection.exchange(get_request(server), {}, {});
  ASSERT_TRUE(out.ok()) << out.describe();
  EXPECT_EQ(out.body, "verified");
  connection.close();
  EXPECT_EQ(seen_name, "localhost");
}

TEST_F(TlsConnection, VerificationChecksTheHostName) {
  scripted_server server(serve_all(http_response(200, "OK", "")), context_);
  auto options = options_for(server);
  options.tls.ca_file = cert_path_;
  options.tls.server_name = "other.example";
  http_connection connection(options);
  const auto out = connection.exchange(get_request(server), {}, {});
  EXPECT_EQ(out.failure.where, stage::tls_handshake);
}

TEST(HttpConnectionConfig, UnreadableCaFileIsAStartUpError) {
  connection_options options;
  options.target = endpoint::parse("https://127.0.0.1:1");
  options.tls.ca_file = "/nonexistent/ca.pem";
  EXPECT_THROW(http_connection{options}, std::runtime_error);
}

} // namespace
} // namespace s3fault::client
