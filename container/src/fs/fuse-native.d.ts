/** The slice of fuse-native 2.2.6 computerd uses; the package ships no types. */
declare module "fuse-native" {
  // biome-ignore lint/suspicious/noExplicitAny: each FUSE op has its own callback signature.
  type Cb = (...args: any[]) => void;
  interface FuseOptions {
    force?: boolean;
    mkdir?: boolean;
    autoCache?: boolean;
    kernelCache?: boolean;
    attrTimeout?: number;
    entryTimeout?: number;
    fsname?: string;
    /** Milliseconds per op, or per op name (`default` for the rest; `false`: no timer). */
    timeout?: number | false | ({ default?: number } & Record<string, number | false | undefined>);
    debug?: boolean;
    allowOther?: boolean;
    defaultPermissions?: boolean;
  }
  class Fuse {
    constructor(mnt: string, ops: Record<string, Cb>, opts?: FuseOptions);
    mount(cb: (err: Error | null) => void): void;
    unmount(cb: (err: Error | null) => void): void;
    static unmount(mnt: string, cb: (err: Error | null) => void): void;
  }
  export = Fuse;
}
