#include "platform/os_random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <system_error>

namespace cuzk::platform {

void os_random(std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    // Requests over 256 bytes may return short, and a signal may interrupt
    // one: both just continue.
    const ssize_t n = ::getrandom(out.data() + done, out.size() - done, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
    done += size_t(n);
  }
}

}  // namespace cuzk::platform
