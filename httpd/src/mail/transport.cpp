#include "mail/transport.hpp"

#include <curl/curl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace corebank::httpd {

namespace {

// Header values come from our own data, but a recipient is user input: no
// CR or LF may reach a header line.
std::string header_safe(const std::string& value) {
    std::string out;
    for (char c : value)
        if (c != '\r' && c != '\n') out.push_back(c);
    return out;
}

std::string rfc5322_date() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    return buffer;
}

// A mail file holds a reset link, that is a credential (issue 13): the
// folder is 0700 and each file 0600, whatever the umask. A folder that
// exists with wider access is narrowed; one that cannot be is refused.
void make_owner_only_directory(const std::string& directory) {
    std::filesystem::create_directories(directory);
    struct stat info {};
    if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        throw std::runtime_error("mail directory " + directory + " is not a directory");
    if ((info.st_mode & 07777) != 0700 && ::chmod(directory.c_str(), 0700) != 0)
        throw std::runtime_error("mail directory " + directory + " cannot be made 0700: " + std::strerror(errno));
}

void write_owner_only_file(const std::string& path, const std::string& text) {
    ::unlink(path.c_str());  // a temp file left by a crash; O_EXCL below refuses anything else there
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        written += static_cast<std::size_t>(n);
    }
    // 0600 at open(): a umask only ever narrows it.
    const bool ok = written == text.size();
    ::close(fd);
    if (!ok) {
        ::unlink(path.c_str());
        throw std::runtime_error("cannot write " + path);
    }
}

class FileTransport : public MailTransport {
public:
    explicit FileTransport(std::string directory) : directory_(std::move(directory)) {}

    void deliver(const MailMessage& message) override {
        make_owner_only_directory(directory_);
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::tm tm{};
        gmtime_r(&now, &tm);
        std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
        // The id names the file: keep only characters a UUID has.
        std::string safe_id;
        for (char c : message.id)
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') safe_id.push_back(c);
        const auto final_path = std::filesystem::path(directory_) / (std::string(stamp) + "-" + safe_id + ".eml");
        const auto temp_path = final_path.string() + ".tmp";
        write_owner_only_file(temp_path, render_rfc5322(message));
        // rename: a reader never sees half a message
        std::filesystem::rename(temp_path, final_path);
    }

private:
    std::string directory_;
};

struct UploadState {
    const std::string* text;
    std::size_t offset;
};

size_t read_upload(char* buffer, size_t size, size_t count, void* user) {
    auto* state = static_cast<UploadState*>(user);
    const std::size_t room = size * count;
    const std::size_t left = state->text->size() - state->offset;
    const std::size_t n = left < room ? left : room;
    std::copy_n(state->text->data() + state->offset, n, buffer);
    state->offset += n;
    return n;
}

class SmtpTransport : public MailTransport {
public:
    SmtpTransport(std::string url, bool allow_plaintext) : url_(std::move(url)), allow_plaintext_(allow_plaintext) {
        if (url_.empty()) throw std::runtime_error("mail_transport = smtp needs smtp_url");
    }

    void deliver(const MailMessage& message) override {
        CURL* curl = curl_easy_init();
        if (curl == nullptr) throw std::runtime_error("curl_easy_init failed");
        const std::string text = render_rfc5322(message);
        UploadState state{&text, 0};
        const std::string from = "<" + header_safe(message.from) + ">";
        const std::string to = "<" + header_safe(message.to) + ">";
        curl_slist* recipients = curl_slist_append(nullptr, to.c_str());
        curl_easy_setopt(curl, CURLOPT_URL, url_.c_str());
        curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.c_str());
        curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
        curl_easy_setopt(curl, CURLOPT_READDATA, &state);
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        // A reset mail holds a credential (issue 13): require TLS (STARTTLS
        // on smtp://) unless smtp_allow_plaintext says a plaintext hop is fine.
        curl_easy_setopt(curl, CURLOPT_USE_SSL, allow_plaintext_ ? static_cast<long>(CURLUSESSL_TRY)
                                                                  : static_cast<long>(CURLUSESSL_ALL));
        const CURLcode rc = curl_easy_perform(curl);
        curl_slist_free_all(recipients);
        curl_easy_cleanup(curl);
        if (rc != CURLE_OK) throw std::runtime_error(std::string("SMTP delivery failed: ") + curl_easy_strerror(rc));
    }

private:
    std::string url_;
    bool allow_plaintext_;
};

}  // namespace

std::string render_rfc5322(const MailMessage& message) {
    std::string out;
    out += "From: " + header_safe(message.from) + "\r\n";
    out += "To: " + header_safe(message.to) + "\r\n";
    out += "Subject: " + header_safe(message.subject) + "\r\n";
    out += "Date: " + rfc5322_date() + "\r\n";
    out += "Message-ID: <" + header_safe(message.id) + "@corebank>\r\n";
    out += "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n";
    out += message.body;
    return out;
}

std::unique_ptr<MailTransport> make_file_transport(std::string directory) {
    return std::make_unique<FileTransport>(std::move(directory));
}

std::unique_ptr<MailTransport> make_smtp_transport(std::string url, bool allow_plaintext) {
    return std::make_unique<SmtpTransport>(std::move(url), allow_plaintext);
}

}  // namespace corebank::httpd
