"""The runner of the Python end-to-end tests in tests/: every test_* function
of a script, in the order written, then its scratch directory removed."""
import shutil


def run_tests(namespace, work):
    """Runs namespace's test_* functions in order (a failing one raises and
    stops the rest), then removes `work` whatever happened."""
    try:
        for name, test in list(namespace.items()):
            if name.startswith("test_") and callable(test):
                test()
                print(f"ok: {name}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
