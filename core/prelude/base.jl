# The prelude: Base for the kernel language. Filled in by the front-end work.
