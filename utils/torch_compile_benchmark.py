"""torch.compile on the spirv device next to Inductor on CUDA (same run, same
models), each beside eager PyTorch on its own device.

    # on the GPU machine, both backends in one run (JSON + Markdown):
    bash scripts/gpu_machine.sh python3 utils/torch_compile_benchmark.py --side-by-side benchmarks/h200-torch-compile.json
    # this backend alone (lavapipe here), small sizes:
    python3 utils/torch_compile_benchmark.py --backend spirv --small benchmarks/lavapipe-torch-compile.json

Inputs and parameters are made on the device (`spirv` through this backend,
`cuda` through Triton's CUDA backend), and Inductor allocates its buffers
there. The spirv side runs with CUDA hidden (`CUDA_VISIBLE_DEVICES=`):
Inductor takes one GPU type per process. `--mode` is torch.compile's mode (default: its default, where matmuls
are the device's eager `mm`; `max-autotune-no-cudagraphs` autotunes Triton
matmul templates); `--models` picks some. Times are wall clock per call
after synchronizing, the median of ROUNDS rounds (and their spread) of
about a quarter of a second each, after a second of calls not counted
(side_by_side.WARMUP_S: the GPU's clocks); "first call" is the first
call's wall clock with empty compile caches: compiling (and autotuning)
every kernel, and running once.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import argument_parser, device_name, run_command_line, warm_up  # noqa: E402

ROUNDS = 5
# Seconds a round of calls takes.
ROUND_S = 0.25
Model = tuple[Callable[..., Any], list[torch.Tensor], torch.nn.Module | None]


class MLPBlock(torch.nn.Module):
    """Linear, GELU, Linear back, residual, LayerNorm."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.up, self.down = torch.nn.Linear(width, 4 * width), torch.nn.Linear(4 * width, width)
        self.norm = torch.nn.LayerNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x + self.down(F.gelu(self.up(x))))


def mlp_block(small: bool) -> Model:
    """Linear 2048 -> 8192, GELU, Linear 8192 -> 2048, residual, LayerNorm
    (batch 2048): its layer norm is Inductor's XBLOCK 2 x R0_BLOCK 2048
    Welford reduction."""
    block = MLPBlock(256 if small else 2048)
    return block, [torch.randn(64 if small else 2048, 256 if small else 2048)], block


def layer_norm_residual(small: bool) -> Model:
    width = 512 if small else 4096
    norm = torch.nn.LayerNorm(width)
    rows = 64 if small else 8192
    return (lambda x, r: norm(x + r)), [torch.randn(rows, width), torch.randn(rows, width)], norm


def softmax_attention(small: bool) -> Model:
    batch, tokens, dim = (2, 64, 64) if small else (16, 512, 128)
    projections = torch.nn.Linear(dim, 3 * dim)

    def attention(x: torch.Tensor) -> torch.Tensor:
        q, k, v = projections(x).chunk(3, dim=-1)
        return ((q @ k.transpose(-1, -2)) / dim**0.5).softmax(-1) @ v

    return attention, [torch.randn(batch, tokens, dim)], projections


def row_statistics(small: bool) -> Model:
    def statistics_of(x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return x.mean(-1), x.var(-1), x.amax(-1), torch.logsumexp(x, -1)

    return statistics_of, [torch.randn(256 if small else 8192, 1000 if small else 8192)], None


def elementwise_chain(small: bool) -> Model:
    n = 1 << (16 if small else 24)

    def chain(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        mixed = a * b + c
        return torch.where(mixed > 0, mixed.sqrt(), mixed.exp())

    columns = 1024
    return chain, [torch.randint(-50, 50, (n // columns, columns), dtype=torch.int32),
                   torch.randn(n // columns, columns).half(), torch.randn(columns)], None


class GPT2Block(torch.nn.Module):
    """Causal self-attention (scaled_dot_product_attention) and an MLP with
    tanh GELU, each after a layer norm, with residuals."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = torch.nn.LayerNorm(width), torch.nn.LayerNorm(width)
        self.qkv, self.proj = torch.nn.Linear(width, 3 * width), torch.nn.Linear(width, width)
        self.fc, self.out = torch.nn.Linear(width, 4 * width), torch.nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, width = x.shape
        q, k, v = (t.view(batch, tokens, self.heads, width // self.heads).transpose(1, 2)
                   for t in self.qkv(self.ln1(x)).split(width, 2))
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(attended.transpose(1, 2).reshape(batch, tokens, width))
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT2(torch.nn.Module):
    """GPT-2's shape: token and position embeddings, blocks, a final layer
    norm and a head tied to the token embedding; returns the mean
    cross-entropy of next-token targets."""

    def __init__(self, layers: int, width: int, heads: int, vocabulary: int, context: int) -> None:
        super().__init__()
        self.tokens, self.positions = torch.nn.Embedding(vocabulary, width), torch.nn.Embedding(context, width)
        self.blocks = torch.nn.ModuleList(GPT2Block(width, heads) for _ in range(layers))
        self.norm = torch.nn.LayerNorm(width)
        self.head = torch.nn.Linear(width, vocabulary, bias=False)
        self.head.weight = self.tokens.weight

    def forward(self, tokens: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.tokens(tokens) + self.positions(positions)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def gpt2_block(small: bool) -> Model:
    batch, tokens, width, heads = (2, 32, 64, 4) if small else (8, 512, 768, 12)
    block = GPT2Block(width, heads)
    return block, [torch.randn(batch, tokens, width)], block


def gpt2_small_training_step(small: bool) -> Model:
    """Forward, backward and an AdamW step of GPT-2 small (12 layers, width
    768, 12 heads, 50,257 tokens), batch 8 x 512 tokens."""
    layers, width, heads, vocabulary, batch, tokens = ((2, 64, 4, 512, 2, 32) if small
                                                       else (12, 768, 12, 50257, 8, 512))
    model = GPT2(layers, width, heads, vocabulary, context=tokens)
    # The optimizer's state is made at its first step, after the model
    # moved to the device.
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def step(tokens: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        loss = model(tokens, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.detach()

    text = torch.randint(0, vocabulary, (batch, tokens + 1))
    return step, [text[:, :-1].contiguous(), text[:, 1:].contiguous()], model


MODELS: dict[str, Callable[[bool], Model]] = {
    "row_statistics": row_statistics, "layer_norm_residual": layer_norm_residual, "mlp_block": mlp_block,
    "gpt2_block": gpt2_block, "gpt2_small_training_step": gpt2_small_training_step,
    "softmax_attention": softmax_attention, "elementwise_chain": elementwise_chain,
}
# Models whose step trains (gradients, optimizer state): run with autograd,
# not compared with a CPU result.
TRAINING = {"gpt2_small_training_step"}


def _max_error(actual: Any, expected: Any) -> float:
    pairs = zip(actual, expected) if isinstance(actual, tuple) else [(actual, expected)]
    return max(float((a.float().cpu() - e.float()).abs().max()) for a, e in pairs)


def _per_call_ms(fn: Callable[[], Any], synchronize: Callable[[], None], calls: int) -> list[float]:
    def round_of_calls() -> None:
        for _ in range(calls):
            fn()
        synchronize()

    synchronize()
    warm_up(round_of_calls)  # not counted: the GPU's clocks ramp up
    rounds = []
    for _ in range(ROUNDS):
        synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        synchronize()
        rounds.append((time.perf_counter() - start) / calls * 1e3)
    return rounds


def _calls_per_round(fn: Callable[[], Any], synchronize: Callable[[], None], most: int) -> int:
    """Calls that take about ROUND_S (at least one, at most `most`), from
    the time of one call: slow eager steps keep runs short."""
    synchronize()
    start = time.perf_counter()
    fn()
    synchronize()
    return max(1, min(most, int(ROUND_S / max(time.perf_counter() - start, 1e-6))))


def _summary(rounds: list[float]) -> dict[str, float]:
    return {"median_ms": statistics.median(rounds), "min_ms": min(rounds), "max_ms": max(rounds)}


def measure(backend_name: str, small: bool, mode: str, models: list[str]) -> dict[str, Any]:
    import torch._inductor.config as inductor_config

    # Empty caches: the first call compiles and autotunes everything.
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inductor-cache-")
    device = torch.device(backend_name)
    synchronize = torch.cuda.synchronize if backend_name == "cuda" else torch.spirv.synchronize
    inductor_config.max_autotune_gemm_backends = "TRITON"
    calls = 3 if small else 1000
    results: dict[str, Any] = {"device": device_name(backend_name), "small": small, "mode": mode,
                               "models": {}}
    for name in models:
        torch.manual_seed(0)
        fn, inputs, module = MODELS[name](small)
        with torch.no_grad():
            expected = fn(*inputs) if name not in TRAINING else None
        entry: dict[str, Any] = {}
        if module is not None:
            module.to(device)
        placed = [t.to(device) for t in inputs]
        grad = torch.enable_grad() if name in TRAINING else torch.no_grad()
        with grad:
            fn(*placed)
            eager_calls = _calls_per_round(lambda: fn(*placed), synchronize, calls)
            entry["eager"] = _summary(_per_call_ms(lambda: fn(*placed), synchronize, eager_calls))
        torch._dynamo.reset()
        compiled = torch.compile(fn, mode=None if mode == "default" else mode)
        with grad:
            start = time.perf_counter()
            actual = compiled(*placed)
            synchronize()
            entry["first_call_s"] = time.perf_counter() - start
            compiled_calls = _calls_per_round(lambda: compiled(*placed), synchronize, calls)
            entry["compiled"] = _summary(_per_call_ms(lambda: compiled(*placed), synchronize, compiled_calls))
        if expected is not None:
            entry["max_error_vs_eager"] = _max_error(actual, expected)
        results["models"][name] = entry
        print(name, entry, flush=True)
    return results


def markdown(results: dict[str, Any]) -> str:
    spirv = results.get("spirv", {})
    cuda = results.get("cuda", {})
    lines = [f"this backend: {spirv.get('device', '-')}; Inductor CUDA: {cuda.get('device', '-')}; "
             f"mode: {spirv.get('mode', cuda.get('mode', '-'))}", "",
             "| model | compiled, spirv (ms) | Inductor CUDA (ms) | ratio | eager spirv (ms) | eager CUDA (ms) "
             "| first call spirv / CUDA (s) | max error vs eager CPU: spirv / CUDA |",
             "|---|---|---|---|---|---|---|---|"]

    def cell(entry: dict[str, Any] | None, key: str) -> str:
        if not entry or key not in entry:
            return "-"
        s = entry[key]
        return f"{s['median_ms']:.3f} ({s['min_ms']:.3f}-{s['max_ms']:.3f})"

    def ratio(ours: dict[str, Any] | None, theirs: dict[str, Any] | None) -> str:
        if not ours or not theirs or "compiled" not in ours or "compiled" not in theirs:
            return "-"
        return f"{theirs['compiled']['median_ms'] / ours['compiled']['median_ms']:.3f}"

    def first_call(entry: dict[str, Any] | None) -> str:
        return f"{entry['first_call_s']:.1f}" if entry and "first_call_s" in entry else "-"

    def error(entry: dict[str, Any] | None) -> str:
        return f"{entry['max_error_vs_eager']:.1e}" if entry and "max_error_vs_eager" in entry else "-"

    for name in MODELS:
        ours = spirv.get("models", {}).get(name)
        theirs = cuda.get("models", {}).get(name)
        if not ours and not theirs:
            continue
        lines.append(f"| {name} | {cell(ours, 'compiled')} | {cell(theirs, 'compiled')} | {ratio(ours, theirs)} "
                     f"| {cell(ours, 'eager')} | {cell(theirs, 'eager')} "
                     f"| {first_call(ours)} / {first_call(theirs)} | {error(ours)} / {error(theirs)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--small", action="store_true", help="sizes for lavapipe")
    parser.add_argument("--mode", default="default", help="torch.compile's mode")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated, of: " + ", ".join(MODELS))
    args = parser.parse_args()
    models = args.models.split(",")
    forwarded = (["--small"] if args.small else []) + ["--mode", args.mode, "--models", args.models]
    run_command_line(__file__, args, forwarded, lambda backend: measure(backend, args.small, args.mode, models),
                     markdown, spirv_without_cuda=True)


if __name__ == "__main__":
    main()
