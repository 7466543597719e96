"""Time one matmul configuration on this backend: python3 bench.py SIZE BM BN BK WARPS [dtype]."""
import statistics, sys
from pathlib import Path
sys.path.insert(0, str(Path.cwd() / "utils")); sys.path.insert(0, str(Path.cwd() / "test"))
import torch
from triton_spirv.run import activate
activate()
from corpus.kernels.matmul import launch_matmul
from kernel_benchmark import steady_times
from side_by_side import Backend
size, bm, bn, bk, w = map(int, sys.argv[1:6])
dtype = getattr(torch, sys.argv[6] if len(sys.argv) > 6 else "float16")
side = Backend("spirv")
gen = torch.Generator().manual_seed(0)
a_host = torch.randn(size, size, generator=gen).to(dtype)
b_host = torch.randn(size, size, generator=gen).to(dtype)
a, b = side.tensor(a_host), side.tensor(b_host)
c = side.empty(size * size, dtype).view(size, size)
run = lambda: launch_matmul(a, b, c, bm, bn, bk, w)
run(); side.synchronize()
expected = a_host.float() @ b_host.float()
error = (c.cpu().float() - expected).abs().max().item() / expected.abs().max().item()
print(f"CHECK relative max error {error:.2e} {'ok' if error < 2e-2 else 'WRONG'}", flush=True)
times = steady_times(run)
rates = sorted(2 * size ** 3 / (ms * 1e-3) / 1e12 for ms in times)
print(f"RESULT {sys.argv[1:]} median {statistics.median(rates):.2f} TFLOP/s spread {(rates[-1]-rates[0])/2:.2f}", flush=True)
