# ref/ref.mk - the reference library, its command-line tool and its tests.
# (Placeholder; ref's owner fills this in.)
REF_SRC  := $(filter-out ref/bcast_shape.c,$(wildcard ref/*.c))
REF_OBJ  := $(REF_SRC:%.c=$(BUILD)/%.o)
REF_LIB  := $(BUILD)/libbcastref.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(REF_LIB): $(REF_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(REF_LIB)
-include $(REF_OBJ:.o=.d)
