idt(x) = x
