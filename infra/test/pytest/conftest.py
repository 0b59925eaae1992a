import pytest

from hcl import INFRA, load_dir


@pytest.fixture(scope="session")
def root():
    return load_dir(INFRA)


@pytest.fixture(scope="session")
def example():
    return load_dir(INFRA / "examples" / "complete")


@pytest.fixture(scope="session")
def registry_env():
    return load_dir(INFRA / "modules" / "registry-env")


@pytest.fixture(scope="session")
def iam_policies():
    return load_dir(INFRA / "modules" / "iam-policies")
