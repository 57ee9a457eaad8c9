// platform_info_test.cpp: the public platform documents say what this process
// runs and is configured with, and nothing that is not built.
//
// Goal: GET /v1/platform names each service on its configured port and none
// as "not built"; GET /v1/platform/compliance reads the KYC provider mode
// from the configuration and lists no control that does not exist
// (regulatory submission, transaction monitoring). Method: build the
// documents from hand-made configurations.
#include <gtest/gtest.h>

#include <string>

#include "banking/platform_info.hpp"
#include "config.hpp"

namespace {

namespace banking = corebank::httpd::core_banking;
using corebank::httpd::Config;
using nlohmann::json;

const json& service(const json& overview, const std::string& name) {
    for (const auto& s : overview.at("services"))
        if (s.at("name") == name) return s;
    throw std::runtime_error("no service " + name);
}

TEST(PlatformOverview, ServicesAreOnTheirConfiguredPorts) {
    Config config;
    config.core_port = 9180;
    config.identity_port = 9181;
    config.verify_port = 9182;
    config.events_port = 9183;
    const json overview = banking::platform_overview(config);
    EXPECT_EQ(overview.at("services").size(), 4u);
    EXPECT_EQ(service(overview, "core-banking").at("port"), 9180);
    EXPECT_EQ(service(overview, "identity").at("port"), 9181);
    EXPECT_EQ(service(overview, "verification").at("port"), 9182);
    EXPECT_EQ(service(overview, "events").at("port"), 9183);
}

TEST(PlatformOverview, NoServiceIsCalledNotBuilt) {
    const json overview = banking::platform_overview(Config{});
    EXPECT_EQ(service(overview, "core-banking").at("status"), "partial");
    for (const char* name : {"identity", "verification", "events"})
        EXPECT_EQ(service(overview, name).at("status"), "available") << name;
}

TEST(PlatformCompliance, KycModeIsTheConfiguredOne) {
    Config config;
    config.external_kyc_provider_mode = "STUB";
    const json stub = banking::platform_compliance(config).at("kyc");
    EXPECT_EQ(stub.at("externalProviderMode"), "STUB");
    EXPECT_NE(stub.at("note").get<std::string>().find("source=STUB"), std::string::npos);

    config.external_kyc_provider_mode = "LIVE_REGISTRY";
    const json other = banking::platform_compliance(config).at("kyc");
    EXPECT_EQ(other.at("externalProviderMode"), "LIVE_REGISTRY");
    EXPECT_NE(other.at("note").get<std::string>().find("refused"), std::string::npos)
        << "a mode with no provider must not read like a working one";
}

TEST(PlatformCompliance, ListsOnlyControlsThatExist) {
    const json compliance = banking::platform_compliance(Config{});
    EXPECT_FALSE(compliance.contains("regulatorySubmission"));
    EXPECT_FALSE(compliance.contains("transactionMonitoring"));
    EXPECT_EQ(compliance.dump().find("simulated"), std::string::npos);
    EXPECT_EQ(compliance.dump().find("advisory"), std::string::npos);
}

}  // namespace
