-- The test library tests/ffi/ffitest.c (its path in MVM_FFITEST_LIB),
-- loaded, with its scalar functions declared; shared by ffi_lib, ffi_jit
-- and ffi_jit2, which declare the rest themselves.
local ffi = require("ffi")
local path = os.getenv("MVM_FFITEST_LIB")
if not path then print("MVM_FFITEST_LIB not set") os.exit(1) end
ffi.cdef[[
int8_t ft_i8(int8_t x); uint8_t ft_u8(uint8_t x);
int16_t ft_i16(int16_t x); uint16_t ft_u16(uint16_t x);
int32_t ft_i32(int32_t x); uint32_t ft_u32(uint32_t x);
int64_t ft_i64(int64_t x); uint64_t ft_u64(uint64_t x);
float ft_float(float x); double ft_double(double x);
bool ft_not(bool b); char ft_upper(char c);
long ft_long(long a, long b);
]]
return ffi.load(path)
