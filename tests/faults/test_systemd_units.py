"""The systemd units of deploy/systemd/ (issue 13, "Restarts": production
restarts PostgreSQL and corebankd after a crash).

`systemd-analyze verify` checks the units' syntax and that ExecStart names an
executable, so it runs on a copy of corebankd.service whose ExecStart is the
built binary (CB_CLI) instead of /usr/local/bin/corebankd. The copy's folder
comes first on SYSTEMD_UNIT_PATH, followed by the system's units (the empty
entry), so Debian's postgresql@.service is found and this folder's drop-in
postgresql@15-main.service.d/ is applied to it. verify only warns about an
unknown key or a bad value, so any output counts as a failure.
`systemd-analyze security --offline` scores the hardening (0 best, 10 worst).
No systemd needs to run: both work on files.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("CB_ROOT") or os.path.abspath(os.path.join(HERE, "..", ".."))
UNITS = os.path.join(ROOT, "deploy", "systemd")
CLI = os.environ.get("CB_CLI") or os.path.join(ROOT, "build", "httpd", "corebankd")
INSTALLED_BINARY = "/usr/local/bin/corebankd"
DATABASE_UNIT = "postgresql@15-main.service"
DROP_IN = DATABASE_UNIT + ".d"
MAX_EXPOSURE = 2.0        # systemd-analyze security; the units score 1.5 today


def unit_entries(path):
    """{(section, key): [values]} of a unit file; a key may repeat (SystemCallFilter)."""
    entries, section = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                section = line.strip("[]")
                continue
            key, _, value = line.partition("=")
            entries.setdefault((section, key.strip()), []).append(value.strip())
    return entries


class SystemdUnitsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.analyze = shutil.which("systemd-analyze")
        cls.tmp = tempfile.mkdtemp(prefix="cb-units-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        # Debian's package `systemd` is in PACKAGES of ./corebank: a missing tool is a failure.
        self.assertIsNotNone(self.analyze, "systemd-analyze is missing (package systemd)")
        self.assertTrue(os.access(CLI, os.X_OK), f"{CLI} is not built")

    def unit_copy(self, name, edit=None):
        """A folder holding the units, corebankd.service's ExecStart pointing at the built binary."""
        folder = tempfile.mkdtemp(prefix=name, dir=self.tmp)
        with open(os.path.join(UNITS, "corebankd.service")) as f:
            text = f.read()
        self.assertEqual(text.count(f"ExecStart={INSTALLED_BINARY} "), 1)
        text = text.replace(f"ExecStart={INSTALLED_BINARY} ", f"ExecStart={CLI} ")
        if edit:
            text = edit(text)
        with open(os.path.join(folder, "corebankd.service"), "w") as f:
            f.write(text)
        shutil.copytree(os.path.join(UNITS, DROP_IN), os.path.join(folder, DROP_IN))
        return folder

    def run_analyze(self, folder, *args):
        env = dict(os.environ, SYSTEMD_UNIT_PATH=folder + ":", SYSTEMD_LOG_COLOR="0")
        done = subprocess.run([self.analyze, *args], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=60)
        return done.returncode, (done.stdout + done.stderr).strip()

    def verify(self, folder):
        return self.run_analyze(folder, "verify", "corebankd.service", DATABASE_UNIT)

    def test_1_units_verify_without_a_warning(self):
        """systemd-analyze verify: corebankd.service and Debian's cluster unit with our drop-in, no output."""
        rc, out = self.verify(self.unit_copy("ok"))
        self.assertEqual((rc, out), (0, ""))

    def test_2_verify_catches_a_bad_value_and_a_missing_binary(self):
        """The check above can fail: a misspelt Restart= value warns; a missing ExecStart binary fails."""
        rc, out = self.verify(self.unit_copy("typo", lambda t: t.replace("Restart=on-failure", "Restart=onfailure")))
        self.assertIn("Failed to parse service restart specifier", out)
        rc, out = self.verify(self.unit_copy("nobinary", lambda t: t.replace(CLI, CLI + "-missing")))
        self.assertNotEqual(rc, 0, out)
        folder = self.unit_copy("dropin")
        with open(os.path.join(folder, DROP_IN, "corebank-restart.conf"), "a") as f:
            f.write("NoSuchKey=1\n")
        rc, out = self.verify(folder)
        self.assertIn("NoSuchKey", out, "the drop-in was not read")

    def test_3_restart_dependency_user_and_hardening(self):
        """What the units promise: database dependency, restarts, an unprivileged user, the hardening."""
        unit = unit_entries(os.path.join(UNITS, "corebankd.service"))
        for key in ("Requires", "After"):
            self.assertIn(DATABASE_UNIT, " ".join(unit.get(("Unit", key), [])).split(), key)
        expected = {
            "Restart": "on-failure", "User": "corebank", "Group": "corebank", "NoNewPrivileges": "yes",
            "CapabilityBoundingSet": "", "AmbientCapabilities": "", "ProtectSystem": "strict",
            "ProtectHome": "yes", "PrivateTmp": "yes", "PrivateDevices": "yes", "UMask": "0077",
            "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6", "RestrictSUIDSGID": "yes",
            "MemoryDenyWriteExecute": "yes", "SystemCallArchitectures": "native",
            "EnvironmentFile": "/etc/corebank/corebankd.env",
        }
        for key, value in expected.items():
            self.assertEqual(unit.get(("Service", key)), [value], key)
        self.assertEqual(unit.get(("Service", "SystemCallFilter")), ["@system-service", "~@privileged"])
        # The one folder it writes is the mail folder that the environment file names.
        with open(os.path.join(UNITS, "corebankd.env.example")) as f:
            env = dict(re.findall(r"^(CORE_[A-Z_]+)=(.*)$", f.read(), re.M))
        self.assertEqual(unit.get(("Service", "ReadWritePaths")), [env["CORE_MAIL_DIR"]])
        credential = unit[("Service", "LoadCredential")][0].split(":")[0]
        self.assertEqual(env["CORE_DATA_KEY_FILE"], f"/run/credentials/corebankd.service/{credential}")
        drop_in = unit_entries(os.path.join(UNITS, DROP_IN, "corebank-restart.conf"))
        self.assertEqual(drop_in.get(("Service", "Restart")), ["on-failure"])

    def test_4_exposure_score(self):
        """systemd-analyze security --offline: overall exposure at most MAX_EXPOSURE."""
        folder = self.unit_copy("security")
        rc, out = self.run_analyze(folder, "security", "--offline=yes", "--no-pager",
                                   f"--threshold={int(MAX_EXPOSURE * 10)}", "./corebankd.service")
        score = re.search(r"Overall exposure level for corebankd\.service: ([0-9.]+)", out)
        self.assertIsNotNone(score, out[-2000:])
        self.assertLessEqual(float(score.group(1)), MAX_EXPOSURE, out[-3000:])
        self.assertEqual(rc, 0, out[-500:])

    def test_5_cluster_settings_match_the_embedded_cluster(self):
        """postgresql-corebank.conf: pgaudit as ./corebank loads it, a root key outside Debian's data directory."""
        conf = {}
        with open(os.path.join(UNITS, "postgresql-corebank.conf")) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()   # no value holds a '#'
                if line:
                    key, _, value = line.partition("=")
                    conf[key.strip()] = value.strip().strip("'")
        # ./corebank and the benchmarks source the embedded cluster's settings from here.
        with open(os.path.join(ROOT, "deploy", "cluster-settings.sh")) as f:
            script = f.read()
        audit = re.search(r'^readonly PG_AUDIT_SETTINGS="(.*?)"$', script, re.M | re.S)
        self.assertIsNotNone(audit, "PG_AUDIT_SETTINGS not found in deploy/cluster-settings.sh")
        embedded = {key: value.strip("'") for key, value in
                    re.findall(r"-c ([a-z_.]+)=('[^']*'|\S+)", audit.group(1).replace("\\\n", " "))}
        self.assertTrue(embedded, audit.group(1))
        for key, value in embedded.items():
            self.assertEqual(conf.get(key), value, f"{key}: the embedded cluster has {value!r}")
        key_file = conf.get("corebank.root_key_file", "")
        self.assertTrue(key_file.startswith("/"), "the root key file is an absolute path")
        self.assertFalse(os.path.normpath(key_file).startswith("/var/lib/postgresql/15/main/"),
                         "the root key file lies outside the data directory")
        # The README creates that file as the server's user, 0600, and installs the settings.
        with open(os.path.join(UNITS, "README.md")) as f:
            readme = f.read()
        self.assertIn(f"runuser -u postgres -- sh -c 'umask 077 && openssl rand -out {key_file} 32'", readme)
        self.assertIn("deploy/systemd/postgresql-corebank.conf /etc/postgresql/15/main/conf.d/corebank.conf", readme)
        self.assertIn("corebankd settings apply", readme)
        self.assertIn("CREATE EXTENSION pgaudit", readme)


if __name__ == "__main__":
    unittest.main()
