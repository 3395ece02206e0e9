"""`python -m taxpro_kernel -f CONNECTION_FILE` runs the kernel (Jupyter does this);
`python -m taxpro_kernel install [--user | --sys-prefix | --prefix PREFIX]` installs its kernel spec."""

import sys


def main() -> int:
    if sys.argv[1:2] == ["install"]:
        from .install import main as install

        return install(sys.argv[2:])
    from ipykernel.kernelapp import IPKernelApp

    from .kernel import TaxProKernel

    IPKernelApp.launch_instance(kernel_class=TaxProKernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
