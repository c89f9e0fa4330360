// The one translation unit that compiles the Asio, Asio SSL and Beast implementations
// (BOOST_*_SEPARATE_COMPILATION is set for every target that links s3fault_asio).
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
