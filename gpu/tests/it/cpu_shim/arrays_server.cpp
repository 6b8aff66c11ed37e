// A host "device" for the array kernels (arrays.cu, blas.cu): one process holding buffers and
// running kernels by name, driven by tests/it/arrays_on_cpu.rs over stdin/stdout, so the Rust
// device backend (its launch sequences, tiling and multi-pass logic) runs unchanged on the CPU.
//
// ARRAYS_SERVER_PREFIX (before the program instances): argument conversion and the kernel table.
// ARRAYS_SERVER_MAIN (after them): the command loop. Protocol, little-endian, one command a
// time: 'A' id bytes | 'F' id | 'Z' id off bytes | 'U' id off len data | 'D' id off len
// (reply: data) | 'C' dst doff src soff bytes | 'L' inst_len inst name_len name grid block nargs
// args (reply: 1 byte, 0 ok) | 'S' (reply: 1 byte) | 'Q'. Integers are u64 unless said; an
// argument is a kind byte (0 buffer: id, offset; 1 u64; 2 i32 as u64; 3 f64 bits; 4 Sc: 8 f64;
// 5 BC: 16 f64).
#ifdef ARRAYS_SERVER_PREFIX
#include <map>
#include <type_traits>
#include <unordered_map>
#include <utility>

struct ShimArg {
    int kind;
    unsigned long long a, b;
    double v[16];
};

static std::unordered_map<unsigned long long, std::vector<unsigned char>> shim_bufs;

template <class A> static A shim_conv(const ShimArg &g) {
    if constexpr (std::is_pointer_v<A>) {
        return (A)(shim_bufs.at(g.a).data() + g.b);
    } else if constexpr (std::is_class_v<A>) {
        A v;
        std::memcpy(&v, g.v, sizeof(A));
        return v;
    } else if constexpr (std::is_floating_point_v<A>) {
        double d;
        std::memcpy(&d, &g.a, 8);
        return (A)d;
    } else {
        return (A)g.a;
    }
}

template <class... A, size_t... I>
static void shim_call(void (*f)(A...), const std::vector<ShimArg> &g, std::index_sequence<I...>) {
    f(shim_conv<A>(g[I])...);
}

struct ShimKernel {
    std::function<void(const std::vector<ShimArg> &)> call;
    size_t nargs;
    bool coop;
};

template <class... A> static ShimKernel shim_kernel(void (*f)(A...), bool coop) {
    return {[f](const std::vector<ShimArg> &g) { shim_call(f, g, std::index_sequence_for<A...>{}); }, sizeof...(A), coop};
}

static std::map<std::string, ShimKernel> shim_table;
#endif

#ifdef ARRAYS_SERVER_INSTANCE
// Inside each instance's namespace.
static void register_all(const std::string &inst) {
#define K(name, coop) shim_table[inst + ":" #name] = shim_kernel(name, coop);
    K(arr_add, false)
    K(arr_sub, false)
    K(arr_mul, false)
    K(arr_div, false)
    K(arr_neg, false)
    K(arr_abs, false)
    K(arr_sqr, false)
    K(arr_sqrt, false)
    K(arr_recip, false)
    K(arr_add_term, false)
    K(arr_mul_term, false)
    K(arr_div_term, false)
    K(arr_red_sum, true)
    K(arr_red_dot, true)
    K(arr_red_sumsq, true)
    K(arr_red_min, true)
    K(arr_red_max, true)
    K(arr_red_sumacc, true)
    K(arr_red_sum_next, true)
    K(arr_red_min_next, true)
    K(arr_red_max_next, true)
    K(arr_red_sumacc_next, true)
    K(arr_amax_lead, true)
    K(arr_scan, true)
    K(arr_sort_tile, true)
    K(arr_merge_pass, false)
    K(arr_gather_u32, false)
    K(arr_gather_u64, false)
    K(arr_sel_count, true)
    K(arr_sel_scatter, true)
    K(blas_axpy, false)
    K(blas_scal, false)
    K(blas_gemv_part, false)
    K(blas_gemv_finish, true)
    K(blas_gemm_fold, true)
    K(blas_gemm_finish, false)
    K(arr_gen_fill, false)
    K(arr_gen_red_sum, true)
    K(arr_gen_red_sumacc, true)
#undef K
}
#endif

#ifdef ARRAYS_SERVER_MAIN
static unsigned long long rd64() {
    unsigned long long v = 0;
    if (std::fread(&v, 8, 1, stdin) != 1) std::exit(0);
    return v;
}

static void reply(const void *p, size_t n) {
    std::fwrite(p, 1, n, stdout);
    std::fflush(stdout);
}

static void serve() {
    for (;;) {
        int c = std::fgetc(stdin);
        if (c == EOF || c == 'Q') return;
        if (c == 'A') {
            unsigned long long id = rd64(), bytes = rd64();
            shim_bufs[id] = std::vector<unsigned char>(bytes + 64, 0xA5);
        } else if (c == 'F') {
            shim_bufs.erase(rd64());
        } else if (c == 'Z') {
            unsigned long long id = rd64(), off = rd64(), n = rd64();
            std::memset(shim_bufs.at(id).data() + off, 0, n);
        } else if (c == 'U') {
            unsigned long long id = rd64(), off = rd64(), n = rd64();
            if (n && std::fread(shim_bufs.at(id).data() + off, 1, n, stdin) != n) std::exit(3);
        } else if (c == 'D') {
            unsigned long long id = rd64(), off = rd64(), n = rd64();
            reply(shim_bufs.at(id).data() + off, n);
        } else if (c == 'C') {
            unsigned long long d = rd64(), doff = rd64(), s = rd64(), soff = rd64(), n = rd64();
            std::memmove(shim_bufs.at(d).data() + doff, shim_bufs.at(s).data() + soff, n);
        } else if (c == 'S') {
            unsigned char ok = 0;
            reply(&ok, 1);
        } else if (c == 'L') {
            std::string inst(rd64(), ' ');
            if (!inst.empty() && std::fread(&inst[0], 1, inst.size(), stdin) != inst.size()) std::exit(3);
            std::string name(rd64(), ' ');
            if (!name.empty() && std::fread(&name[0], 1, name.size(), stdin) != name.size()) std::exit(3);
            unsigned grid = (unsigned)rd64(), block = (unsigned)rd64();
            size_t nargs = rd64();
            std::vector<ShimArg> args(nargs);
            for (auto &g : args) {
                g.kind = std::fgetc(stdin);
                g.a = g.b = 0;
                if (g.kind == 0) {
                    g.a = rd64();
                    g.b = rd64();
                } else if (g.kind <= 3) {
                    g.a = rd64();
                } else {
                    int cnt = g.kind == 4 ? 8 : 16;
                    for (int i = 0; i < cnt; ++i) {
                        unsigned long long bits = rd64();
                        std::memcpy(&g.v[i], &bits, 8);
                    }
                }
            }
            auto it = shim_table.find(inst + ":" + name);
            unsigned char status = 0;
            if (it == shim_table.end()) {
                status = 1;
            } else if (it->second.nargs != nargs) {
                status = 2;
            } else {
                const ShimKernel &k = it->second;
                gridDim.x = grid;
                blockDim.x = block;
                for (unsigned b = 0; b < grid; ++b) {
                    blockIdx.x = b;
                    if (k.coop) {
                        shim_run_block(block, [&] { k.call(args); });
                    } else {
                        for (unsigned t = 0; t < block; ++t) {
                            threadIdx.x = t;
                            k.call(args);
                        }
                    }
                }
            }
            reply(&status, 1);
        } else {
            std::exit(4);
        }
    }
}
#endif
