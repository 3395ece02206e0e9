#include <stdio.h>
#include <histedit.h>
