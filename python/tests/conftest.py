def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs an NVIDIA GPU and a build with the GPU kernels (suite gpu)")
