"""aftui.config: the profile file, its validation messages, secrets and overrides."""

from __future__ import annotations

import dataclasses
import os
import pickle
import stat
import textwrap
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aftui import files
from aftui.config import (
    DEFAULT_BASE_URL,
    Config,
    ConfigError,
    Credentials,
    Profile,
    ProfileError,
    config_path,
    credentials,
    data_dir,
    effective_profile,
    import_pipedream_cli,
    load_config,
    mask,
    resolve_secret,
    save_config,
    save_ui_choice,
    show_profile,
)

LONG_KEY = "pd_live_0123456789abcdef"  # long enough to be shown partly by mask()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A home of its own and none of the variables aftui.config reads."""
    for variable in list(os.environ):
        if variable.startswith(("AFTUI_", "XDG_")):
            monkeypatch.delenv(variable)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def home(clean_env: Path) -> Path:
    return clean_env


@pytest.fixture
def config_file(home: Path) -> Path:
    """Where the config is by default; shown as ~/.config/aftui/config.toml in messages."""
    return home / ".config" / "aftui" / "config.toml"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- paths --------------------------------------------------------------------


def test_config_path_prefers_aftui_config_then_xdg_then_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    assert config_path() == home / ".config" / "aftui" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")  # the XDG spec says to ignore relative paths
    assert config_path() == home / ".config" / "aftui" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    assert config_path() == home / "xdg" / "aftui" / "config.toml"
    monkeypatch.setenv("AFTUI_CONFIG", str(home / "elsewhere.toml"))
    assert config_path() == home / "elsewhere.toml"


def test_data_dir_is_created_private(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    directory = data_dir()
    assert directory == home / ".local" / "share" / "aftui"
    assert directory.is_dir() and mode(directory) == 0o700

    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert data_dir() == home / "data" / "aftui"

    monkeypatch.setenv("AFTUI_DATA_DIR", str(home / "mine"))
    assert data_dir() == home / "mine"
    assert mode(home / "mine") == 0o700


def test_data_dir_leaves_an_existing_directory_alone(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    existing = home / "shared"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    monkeypatch.setenv("AFTUI_DATA_DIR", str(existing))
    assert data_dir() == existing
    assert mode(existing) == 0o755


# -- save and load ------------------------------------------------------------


def full_config() -> Config:
    config = Config()
    config.add(
        Profile(
            name="work",
            base_url="https://api.example.com/v1",
            api_key_env="WORK_KEY",
            org_id="o_abc",
            project_id="proj_x",
            environment="development",
            read_only=True,
        )
    )
    config.add(Profile(name="ci.bot", client_id="oc_1", client_secret_cmd="pass show aftui/ci"))
    config.add(Profile(name="plain", api_key=LONG_KEY))
    config.use("work")
    return config


def test_missing_file_is_an_empty_config(config_file: Path) -> None:
    assert load_config() == Config()
    assert load_config(config_file.parent / "nope.toml") == Config()


def test_round_trip(config_file: Path) -> None:
    config = full_config()
    save_config(config)
    assert config_file.exists()
    assert load_config() == config
    assert load_config(config_file) == config


def test_the_bell_setting_loads_and_saves(config_file: Path) -> None:
    assert load_config(config_file).ui.bell is None
    write(config_file, '[profiles.work]\napi_key = "k"\n\n[ui]\nbell = true\n')
    config = load_config(config_file)
    assert config.ui.bell is True
    save_config(config, config_file)
    assert load_config(config_file).ui.bell is True
    config.ui.bell = None
    save_config(config, config_file)
    assert "bell" not in config_file.read_text()
    write(config_file, '[ui]\nbell = "yes"\n')
    with pytest.raises(ConfigError, match=r"ui\.bell must be a boolean, got a string"):
        load_config(config_file)


def test_the_documented_example_loads(config_file: Path) -> None:
    write(
        config_file,
        """
        default = "work"
        [profiles.work]
        base_url = "https://api.example.com/v1"
        api_key_env = "WORK_KEY"
        org_id = "o_abc"
        project_id = "proj_x"
        environment = "production"
        read_only = true
        """,
    )
    config = load_config()
    assert config.default == "work"
    assert config.get() == Profile(
        name="work",
        base_url="https://api.example.com/v1",
        api_key_env="WORK_KEY",
        org_id="o_abc",
        project_id="proj_x",
        read_only=True,
    )


def test_saved_file_is_0600_and_new_dir_0700_even_under_a_lax_umask(config_file: Path) -> None:
    previous = os.umask(0)  # what a careless shell might have: everything world-writable
    try:
        save_config(full_config())
    finally:
        os.umask(previous)
    assert mode(config_file) == 0o600
    assert mode(config_file.parent) == 0o700


def test_saving_over_a_world_readable_file_makes_it_private(config_file: Path) -> None:
    write(config_file, "")
    config_file.chmod(0o644)
    save_config(full_config())
    assert mode(config_file) == 0o600


def test_temporary_file_is_private_from_creation(monkeypatch: pytest.MonkeyPatch, config_file: Path) -> None:
    # Look at the temporary file at the last moment before it becomes the config.
    seen: list[tuple[Path, int]] = []
    real_replace = os.replace

    def spy(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        seen.append((Path(source), mode(Path(source))))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", spy)
    save_config(full_config())
    [(temporary, temporary_mode)] = seen
    assert temporary.parent == config_file.parent
    assert temporary_mode == 0o600


def test_atomic_write_leaves_no_temporary_file(config_file: Path) -> None:
    save_config(full_config())
    save_config(full_config())
    assert sorted(p.name for p in config_file.parent.iterdir()) == ["config.toml"]


def test_failed_write_keeps_the_old_file_and_removes_the_temporary(
    monkeypatch: pytest.MonkeyPatch, config_file: Path
) -> None:
    save_config(full_config())
    before = config_file.read_bytes()

    def broken_replace(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(ConfigError, match=r"^~/\.config/aftui/config\.toml: cannot write: No space left on device$"):
        save_config(Config())
    assert config_file.read_bytes() == before
    assert sorted(p.name for p in config_file.parent.iterdir()) == ["config.toml"]


def test_a_symlinked_config_is_written_through_the_link(home: Path, config_file: Path) -> None:
    target = write(home / "dotfiles" / "aftui.toml", "")
    config_file.parent.mkdir(parents=True)
    config_file.symlink_to(target)
    save_config(full_config())
    assert config_file.is_symlink()
    assert load_config(target) == full_config()


def test_save_refuses_what_would_not_load_again(tmp_path: Path) -> None:
    config = full_config()
    config.profiles["work"].environment = "prod"  # assigned after creation, so not yet checked
    with pytest.raises(ProfileError, match='environment must be "production"'):
        save_config(config, tmp_path / "c.toml")

    config = Config(default="ghost", profiles={"plain": Profile(name="plain")})
    with pytest.raises(ConfigError, match='default profile "ghost" does not exist'):
        save_config(config, tmp_path / "c.toml")
    assert not (tmp_path / "c.toml").exists()


# -- validation messages ------------------------------------------------------

WHERE = "~/.config/aftui/config.toml"

# (file text, line, problem): each must come out as "<file>, line <n>: <problem>".
INVALID_FILES = {
    "unknown key": (
        """
        [profiles.work]
        api_key_env = "WORK_KEY"
        base_ur = "https://api.example.com/v1"
        """,
        3,
        'profile "work": unknown key "base_ur" (did you mean "base_url"?)',
    ),
    "wrong type of bool": (
        """
        [profiles.work]
        read_only = "yes"
        """,
        2,
        'profile "work": read_only must be true or false, got a string',
    ),
    "wrong type of string": (
        """
        [profiles.work]
        org_id = 42
        """,
        2,
        'profile "work": org_id must be a string, got an integer',
    ),
    "bad environment": (
        """
        default = "work"

        [profiles.other]
        api_key = "k"

        [profiles.work]
        environment = "prod"
        """,
        7,
        'profile "work": environment must be "production" or "development", got "prod"',
    ),
    "api key and client credentials": (
        """
        [profiles.work]
        api_key_env = "WORK_KEY"
        client_id = "oc_1"
        client_secret_env = "SECRET"
        """,
        3,
        'profile "work": give either an API key (api_key_env) or client credentials (client_id), not both',
    ),
    "two api key sources": (
        """
        [profiles.work]
        api_key = "k"
        api_key_cmd = "pass show work"
        """,
        3,
        'profile "work": give only one of api_key, api_key_env or api_key_cmd, not api_key and api_key_cmd',
    ),
    "two client secret sources": (
        """
        [profiles.work]
        client_id = "oc_1"
        client_secret_env = "S"
        client_secret_cmd = "pass show s"
        """,
        4,
        (
            'profile "work": give only one of client_secret, client_secret_env or client_secret_cmd,'
            " not client_secret_env and client_secret_cmd"
        ),
    ),
    "client secret without id": (
        """
        [profiles.work]
        client_secret_env = "S"
        """,
        2,
        'profile "work": client_secret_env is given without client_id',
    ),
    "client id without secret": (
        """
        [profiles.work]
        client_id = "oc_1"
        """,
        2,
        'profile "work": client_id needs one of client_secret, client_secret_env or client_secret_cmd',
    ),
    "base_url not http": (
        """
        [profiles.work]
        base_url = "ftp://api.example.com/v1"
        """,
        2,
        'profile "work": base_url must be an http:// or https:// URL, got "ftp://api.example.com/v1"',
    ),
    "base_url without host": (
        """
        [profiles.work]
        base_url = "https://"
        """,
        2,
        'profile "work": base_url must be an http:// or https:// URL, got "https://"',
    ),
    "empty string": (
        """
        [profiles.work]
        org_id = ""
        """,
        2,
        'profile "work": org_id must not be empty (leave the key out instead)',
    ),
    "quoted profile name, error on its header": (
        """
        [profiles.plain]

        [profiles."my.work"]
        client_secret = "x"
        """,
        4,
        'profile "my.work": client_secret is given without client_id',
    ),
    "profile as an inline table": (
        """
        [profiles]
        plain = {}
        work = { environment = "staging" }
        """,
        3,
        'profile "work": environment must be "production" or "development", got "staging"',
    ),
    "sub-table in a profile": (
        """
        [profiles.work]
        api_key = "k"

        [profiles.work.headers]
        x-trace = "1"
        """,
        4,
        'profile "work": unknown key "headers"',
    ),
    "profile not a table": (
        """
        [profiles]
        work = 3
        """,
        2,
        'profile "work": must be a table, got an integer',
    ),
    "unknown top-level key": (
        """
        defualt = "work"
        [profiles.work]
        """,
        1,
        'unknown top-level key "defualt" (did you mean "default"?)',
    ),
    "default not a string": (
        """
        default = 1
        """,
        1,
        "default must be a string, got an integer",
    ),
    "default names no profile": (
        """
        # my profiles
        default = "wrok"
        [profiles.work]
        [profiles.home]
        """,
        2,
        'default names the profile "wrok", which is not defined; known profiles: home, work',
    ),
    "profiles not a table": (
        """
        profiles = ["work"]
        """,
        1,
        "profiles must be a table of profiles, got an array",
    ),
}


@pytest.mark.parametrize(("text", "line", "problem"), INVALID_FILES.values(), ids=INVALID_FILES.keys())
def test_validation_error_names_file_line_and_problem(config_file: Path, text: str, line: int, problem: str) -> None:
    write(config_file, text)
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert str(caught.value) == f"{WHERE}, line {line}: {problem}"
    assert (caught.value.path, caught.value.line) == (config_file, line)


def test_type_errors_never_quote_the_value(config_file: Path) -> None:
    write(config_file, '[profiles.work]\napi_key = ["s3cr3t-value"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert str(caught.value) == f'{WHERE}, line 2: profile "work": api_key must be a string, got an array'


def test_a_file_outside_home_is_named_in_full(tmp_path: Path) -> None:
    path = write(tmp_path / "etc" / "aftui.toml", '[profiles.work]\nenvironment = "prod"\n')
    with pytest.raises(ConfigError, match=rf"^{path}, line 2: profile \"work\": environment"):
        load_config(path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('default = "work"\n[profiles.work]\nbase_url = \n', "line 3: invalid TOML: Invalid value (column 12)"),
        ("[profiles.work]\n[profiles.work]\n", "line 2: invalid TOML: Cannot declare ('profiles', 'work') twice"),
        ('[profiles.work]\napi_key = "unterminated\n', "line 2: invalid TOML: Illegal character '\\n' (column 24)"),
        (
            '[profiles.work]\norg_id = """never closed',
            "line 2: invalid TOML: Unterminated string at the end of the file",
        ),
    ],
)
def test_toml_syntax_error_gives_file_and_line(config_file: Path, text: str, expected: str) -> None:
    write(config_file, text)
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert str(caught.value).startswith(f"{WHERE}, {expected}")


def test_bytes_that_are_not_utf8_give_file_and_line(config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_bytes(b'[profiles.work]\norg_id = "caf\xe9"\n')
    with pytest.raises(ConfigError, match=r"^~/\.config/aftui/config\.toml, line 2: the file is not UTF-8 text$"):
        load_config()


def test_an_unreadable_path_is_a_config_error(config_file: Path) -> None:
    config_file.mkdir(parents=True)  # a directory where the file should be
    with pytest.raises(ConfigError, match=r"^~/\.config/aftui/config\.toml: cannot read: "):
        load_config()


toml_values = st.recursive(
    st.booleans() | st.integers() | st.text(max_size=12) | st.sampled_from(["production", "http://x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
profile_tables = st.dictionaries(
    st.sampled_from([f.name for f in dataclasses.fields(Profile)] + ["extra"]), toml_values
)
documents = st.fixed_dictionaries(
    {},
    optional={
        "default": st.text(max_size=6) | st.integers(),
        "profiles": st.dictionaries(st.text(min_size=0, max_size=6), profile_tables | toml_values, max_size=3),
    },
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200) | documents.map(lambda d: tomli_w.dumps(d)))
def test_any_file_loads_or_gives_a_config_error(tmp_path: Path, text: str) -> None:
    """Whatever is in the file, the user sees a message, never a traceback."""
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except ConfigError as error:
        assert str(error).startswith(str(path))


# -- get, add, remove, use ----------------------------------------------------


def two_profiles(default: str | None = None) -> Config:
    return Config(default=default, profiles={"home": Profile(name="home"), "work": Profile(name="work")})


def test_get_by_name() -> None:
    assert two_profiles().get("work").name == "work"


def test_get_prefers_aftui_profile_then_default(monkeypatch: pytest.MonkeyPatch) -> None:
    config = two_profiles(default="home")
    assert config.get().name == "home"
    monkeypatch.setenv("AFTUI_PROFILE", "work")
    assert config.get().name == "work"
    assert config.get("home").name == "home"  # an explicit name beats the variable


def test_get_takes_the_only_profile() -> None:
    assert Config(profiles={"solo": Profile(name="solo")}).get().name == "solo"


def test_get_with_several_profiles_and_no_default_lists_them() -> None:
    with pytest.raises(ConfigError) as caught:
        two_profiles().get()
    assert str(caught.value) == (
        "2 profiles and no default: choose one with AFTUI_PROFILE or set a default (known profiles: home, work)"
    )


def test_get_unknown_lists_the_known_names(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=r'^unknown profile "wrok"; known profiles: home, work$'):
        two_profiles().get("wrok")
    monkeypatch.setenv("AFTUI_PROFILE", "nope")
    with pytest.raises(
        ConfigError, match=r'^unknown profile "nope" \(from AFTUI_PROFILE\); known profiles: home, work$'
    ):
        two_profiles().get()


def test_get_with_no_profiles() -> None:
    with pytest.raises(ConfigError, match=r"^no profiles are configured$"):
        Config().get()
    with pytest.raises(ConfigError, match=r'^unknown profile "x"; no profiles are configured$'):
        Config().get("x")


def test_add_remove_use() -> None:
    config = Config()
    config.add(Profile(name="work"))
    with pytest.raises(ConfigError, match='profile "work" already exists'):
        config.add(Profile(name="work", org_id="o_1"))
    config.add(Profile(name="work", org_id="o_1"), overwrite=True)
    assert config.get("work").org_id == "o_1"

    config.use("work")
    assert config.default == "work"
    with pytest.raises(ConfigError, match='unknown profile "home"'):
        config.use("home")

    assert config.remove("work").name == "work"
    assert config == Config()  # the default went with it
    with pytest.raises(ConfigError, match='unknown profile "work"'):
        config.remove("work")


def test_errors_survive_pickling() -> None:
    # They may cross a process boundary (a worker checking a profile).
    error = ProfileError("work", "org_id", "org_id must be a string").located(Path("/c.toml"), 3)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.key) == (ProfileError, str(error), "org_id")


def test_profiles_made_in_code_are_validated_too() -> None:
    with pytest.raises(ProfileError) as caught:
        Profile(name="x", api_key="k", client_id="c", client_secret="s")
    assert caught.value.key == "client_id"
    with pytest.raises(ProfileError, match="read_only must be true or false, got an integer"):
        Profile(name="x", read_only=1)  # type: ignore[arg-type]


# -- secrets ------------------------------------------------------------------


def test_literal_api_key() -> None:
    assert resolve_secret(Profile(name="p", api_key="k")) == Credentials(kind="api_key", api_key="k")


def test_api_key_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORK_KEY", " from-env\n")
    assert resolve_secret(Profile(name="p", api_key_env="WORK_KEY")).api_key == "from-env"


def test_missing_env_var_is_named() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_secret(Profile(name="work", api_key_env="WORK_KEY"))
    assert str(caught.value) == 'profile "work": the environment variable WORK_KEY (api_key_env) is not set'


def test_api_key_from_command() -> None:
    credentials = resolve_secret(Profile(name="p", api_key_cmd="printf secret"))
    assert credentials == Credentials(kind="api_key", api_key="secret")


def test_client_secret_from_command() -> None:
    profile = Profile(name="p", client_id="oc_1", client_secret_cmd="echo '  s3cret  '")
    assert resolve_secret(profile) == Credentials(kind="oauth", client_id="oc_1", client_secret="s3cret")


def test_client_secret_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_SECRET", "cs")
    profile = Profile(name="p", client_id="oc_1", client_secret_env="CI_SECRET")
    assert resolve_secret(profile) == Credentials(kind="oauth", client_id="oc_1", client_secret="cs")


def test_failing_command_shows_stderr_never_stdout() -> None:
    profile = Profile(name="work", api_key_cmd="echo half-printed-secret; echo 'vault is locked' >&2; exit 3")
    with pytest.raises(ConfigError) as caught:
        resolve_secret(profile)
    message = str(caught.value)
    assert message == 'profile "work": api_key_cmd failed with exit status 3: vault is locked'
    assert "half-printed-secret" not in message


def test_command_printing_nothing() -> None:
    with pytest.raises(ConfigError, match=r'^profile "p": api_key_cmd printed nothing: true$'):
        resolve_secret(Profile(name="p", api_key_cmd="true"))


def test_command_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(credentials, "SECRET_COMMAND_TIMEOUT", 0.2)
    with pytest.raises(ConfigError, match=r'^profile "p": client_secret_cmd did not finish within 0.2 s: sleep 5$'):
        resolve_secret(Profile(name="p", client_id="c", client_secret_cmd="sleep 5"))


def test_no_credential_at_all() -> None:
    with pytest.raises(ConfigError, match=r'^profile "p": no credential: set one of api_key'):
        resolve_secret(Profile(name="p"))


def test_mask() -> None:
    assert mask(LONG_KEY) == "pd_l…ef"
    assert mask("short") == "****"
    assert mask("") == "****"


def test_credentials_repr_masks_secrets() -> None:
    credentials = Credentials(kind="oauth", client_id="oc_1", client_secret="cs_0123456789abcdef")
    assert repr(credentials) == "Credentials(kind='oauth', api_key=None, client_id='oc_1', client_secret='cs_0…ef')"
    assert "0123456789" not in str(credentials)
    assert LONG_KEY not in repr(Credentials(kind="api_key", api_key=LONG_KEY))
    assert LONG_KEY not in f"{[Credentials(kind='api_key', api_key=LONG_KEY)]}"


def test_show_profile_masks_secrets_and_shows_where_they_come_from() -> None:
    shown = show_profile(Profile(name="p", client_id="oc_1", client_secret="cs_0123456789abcdef"))
    assert shown == {
        "name": "p",
        "base_url": DEFAULT_BASE_URL,
        "api_key": None,
        "api_key_env": None,
        "api_key_cmd": None,
        "client_id": "oc_1",
        "client_secret": "cs_0…ef",
        "client_secret_env": None,
        "client_secret_cmd": None,
        "org_id": None,
        "project_id": None,
        "environment": "production",
        "read_only": False,
        "journal": None,
        "journal_max_rows": None,
        "journal_max_days": None,
    }
    assert show_profile(Profile(name="p", api_key=LONG_KEY))["api_key"] == "pd_l…ef"
    assert show_profile(Profile(name="p", api_key_env="WORK_KEY"))["api_key_env"] == "WORK_KEY"
    assert show_profile(Profile(name="p", api_key_cmd="pass show x"))["api_key_cmd"] == "pass show x"


def test_profile_repr_masks_secrets() -> None:
    assert LONG_KEY not in repr(Profile(name="p", api_key=LONG_KEY))
    assert "pd_l…ef" in repr(Profile(name="p", api_key=LONG_KEY))


# -- environment overrides ----------------------------------------------------


def work_config() -> Config:
    return Config(profiles={"work": Profile(name="work", api_key_env="WORK_KEY", org_id="o_abc")})


def test_no_overrides_gives_the_profile_itself() -> None:
    assert effective_profile(work_config()) == work_config().get("work")


def test_field_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_BASE_URL", "http://127.0.0.1:8787/v1")
    monkeypatch.setenv("AFTUI_ORG_ID", "o_other")
    monkeypatch.setenv("AFTUI_PROJECT_ID", "proj_y")
    monkeypatch.setenv("AFTUI_ENVIRONMENT", "development")
    monkeypatch.setenv("AFTUI_READ_ONLY", "yes")
    profile = effective_profile(work_config())
    assert profile == Profile(
        name="work",
        base_url="http://127.0.0.1:8787/v1",
        api_key_env="WORK_KEY",
        org_id="o_other",
        project_id="proj_y",
        environment="development",
        read_only=True,
    )


def test_aftui_profile_picks_the_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_PROFILE", "work")
    monkeypatch.setenv("AFTUI_ORG_ID", "o_env")
    profile = effective_profile(two_profiles(default="home"))
    assert (profile.name, profile.org_id) == ("work", "o_env")


def test_api_key_override_replaces_the_whole_credential(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_API_KEY", "k_env")
    config = Config(profiles={"ci": Profile(name="ci", client_id="oc_1", client_secret_env="S")})
    profile = effective_profile(config)
    assert (profile.api_key, profile.client_id, profile.client_secret_env) == ("k_env", None, None)
    assert resolve_secret(profile) == Credentials(kind="api_key", api_key="k_env")


def test_client_credential_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_CLIENT_ID", "oc_env")
    monkeypatch.setenv("AFTUI_CLIENT_SECRET", "cs_env")
    credentials = resolve_secret(effective_profile(work_config()))
    assert credentials == Credentials(kind="oauth", client_id="oc_env", client_secret="cs_env")


def test_client_secret_override_keeps_the_profile_client_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_CLIENT_SECRET", "cs_env")
    config = Config(profiles={"ci": Profile(name="ci", client_id="oc_1", client_secret_cmd="false")})
    assert resolve_secret(effective_profile(config)) == Credentials(
        kind="oauth", client_id="oc_1", client_secret="cs_env"
    )


def test_bad_override_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_ENVIRONMENT", "prod")
    with pytest.raises(ConfigError) as caught:
        effective_profile(work_config())
    assert str(caught.value) == 'AFTUI_ENVIRONMENT: environment must be "production" or "development", got "prod"'


def test_api_key_and_client_credentials_from_env_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_API_KEY", "k")
    monkeypatch.setenv("AFTUI_CLIENT_ID", "c")
    with pytest.raises(ConfigError, match="either AFTUI_API_KEY or AFTUI_CLIENT_ID"):
        effective_profile(work_config())


def test_read_only_override_can_only_switch_it_on(monkeypatch: pytest.MonkeyPatch) -> None:
    guarded = Config(profiles={"prod": Profile(name="prod", read_only=True)})
    monkeypatch.setenv("AFTUI_READ_ONLY", "0")
    assert effective_profile(guarded).read_only is True
    monkeypatch.setenv("AFTUI_READ_ONLY", "TRUE")
    assert effective_profile(work_config()).read_only is True
    monkeypatch.setenv("AFTUI_READ_ONLY", "maybe")
    with pytest.raises(
        ConfigError,
        match=r"^AFTUI_READ_ONLY must be one of 1, on, true, yes \(read-only\) or 0, false, no, off .*got \"maybe\"$",
    ):
        effective_profile(work_config())


def test_empty_variables_count_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_BASE_URL", "")
    monkeypatch.setenv("AFTUI_API_KEY", "")
    assert effective_profile(work_config()) == work_config().get("work")


def test_ad_hoc_env_profile_from_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_API_KEY", "k_env")
    monkeypatch.setenv("AFTUI_BASE_URL", "http://127.0.0.1:8787/v1")
    profile = effective_profile(Config())
    assert profile == Profile(name="env", base_url="http://127.0.0.1:8787/v1", api_key="k_env")


def test_ad_hoc_env_profile_from_client_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_CLIENT_ID", "oc_env")
    monkeypatch.setenv("AFTUI_CLIENT_SECRET", "cs_env")
    profile = effective_profile(Config())
    assert (profile.name, profile.client_id, profile.client_secret) == ("env", "oc_env", "cs_env")


def test_ad_hoc_env_profile_needs_both_client_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_CLIENT_ID", "oc_env")
    with pytest.raises(ConfigError, match=r"^AFTUI_CLIENT_ID: client_id needs one of client_secret"):
        effective_profile(Config())


def test_no_profile_and_no_credential_in_env() -> None:
    with pytest.raises(
        ConfigError, match=r"^no profiles are configured and AFTUI_API_KEY is not set: add one with `aftui config add"
    ):
        effective_profile(Config())


def test_env_profile_is_not_made_when_profiles_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTUI_API_KEY", "k_env")
    assert effective_profile(work_config()).name == "work"


# -- the official CLI's profiles ----------------------------------------------


def test_import_pipedream_cli_default_and_sections(home: Path) -> None:
    write(
        home / ".config" / "pipedream" / "config",
        """
        api_key = pd_default_key
        org_id = o_default
        some_future_key = ignored

        [work]
        api_key = "pd_work_key"
        org_id = o_work

        [percent]
        api_key = 50%off
        """,
    )
    assert import_pipedream_cli() == [
        Profile(name="default", api_key="pd_default_key", org_id="o_default"),
        Profile(name="work", api_key="pd_work_key", org_id="o_work"),
        Profile(name="percent", api_key="50%off"),
    ]


def test_import_pipedream_cli_follows_xdg(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    write(home / "xdg" / "pipedream" / "config", "[only]\napi_key = k\n")
    assert import_pipedream_cli() == [Profile(name="only", api_key="k")]


def test_import_pipedream_cli_keeps_default_section_separate(tmp_path: Path) -> None:
    # configparser would copy [DEFAULT] into every section; the CLI has no such rule.
    path = write(tmp_path / "config", "[DEFAULT]\napi_key = a\n[other]\norg_id = o_1\n")
    assert import_pipedream_cli(path) == [Profile(name="DEFAULT", api_key="a"), Profile(name="other", org_id="o_1")]


def test_import_pipedream_cli_absent(tmp_path: Path) -> None:
    assert import_pipedream_cli() == []
    assert import_pipedream_cli(tmp_path / "nope") == []


def test_import_pipedream_cli_malformed(tmp_path: Path) -> None:
    path = write(tmp_path / "config", "api_key = k\n[work\napi_key = j\n")
    with pytest.raises(ConfigError, match=rf"^{path}, line 2: not a valid INI file$"):
        import_pipedream_cli(path)


def test_imported_profiles_can_be_saved(tmp_path: Path) -> None:
    path = write(tmp_path / "pd", "api_key = pd_default_key\n[work]\napi_key = pd_work_key\n")
    config = Config()
    for profile in import_pipedream_cli(path):
        config.add(profile)
    save_config(config, tmp_path / "aftui.toml")
    assert load_config(tmp_path / "aftui.toml") == config


def test_ui_choices_are_kept_beside_the_profiles_and_checked(config_file: Path) -> None:
    write(config_file, '[profiles.work]\napi_key_env = "WORK_KEY"\n')
    save_ui_choice(theme="nord")
    save_ui_choice(sidebar=False)
    config = load_config()
    assert (config.ui.theme, config.ui.sidebar) == ("nord", False)
    assert list(config.profiles) == ["work"]  # the rest of the file is kept
    assert mode(config_file) == 0o600
    write(config_file, "[ui]\ntheme = 3\n")
    with pytest.raises(ConfigError, match=r"ui\.theme must be a string, got an integer"):
        load_config()
    write(config_file, '[ui]\nthem = "nord"\n')
    with pytest.raises(ConfigError, match='unknown key "them" in ui'):
        load_config()


def test_a_profile_names_a_team_journal_and_its_caps_and_hides_its_password() -> None:
    from aftui.config.profiles import Profile, ProfileError, show_profile
    from aftui.journal.opening import JournalConfig
    from aftui.journal.retention import Retention

    team = Profile.from_dict(
        "oncall",
        {"journal": "postgresql://oncall:hunter2@db.team:5432/aftui", "journal_max_rows": 5000, "journal_max_days": 30},
    )
    assert show_profile(team)["journal"] == "postgresql://oncall:****@db.team:5432/aftui"
    assert "hunter2" not in repr(team)
    config = JournalConfig.of_profile(team)
    assert config.url == team.journal and Retention.from_env(config).max_age_s == 30 * 86_400
    with pytest.raises(ProfileError, match="postgresql:// URL"):
        Profile.from_dict("x", {"journal": "/tmp/journal.sqlite3"})
    with pytest.raises(ProfileError, match="journal_max_days"):
        Profile.from_dict("x", {"journal_max_days": "a month"})
    with pytest.raises(ProfileError, match="journal_max_rows"):
        Profile.from_dict("x", {"journal_max_rows": -1})
