package dev.layerfold.dedup.codec.tar;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * Finds the {@code size} record in a PAX extended header body ({@code "<length> <key>=<value>\n"}
 * records), which overrides the next entry's size field. Malformed records end the search: the
 * skeleton keeps the bytes anyway, only body recognition depends on this.
 */
final class PaxSize {

    private PaxSize() {
    }

    static OptionalLong find(byte[] body, int length) {
        OptionalLong size = OptionalLong.empty();
        int pos = 0;
        while (pos < length) {
            int space = pos;
            long recordLength = 0;
            while (space < length && body[space] >= '0' && body[space] <= '9' && recordLength < length) {
                recordLength = recordLength * 10 + (body[space] - '0');
                space++;
            }
            if (space == pos || space >= length || body[space] != ' ' || recordLength <= space - pos || pos + recordLength > length
                    || body[(int) (pos + recordLength - 1)] != '\n') {
                return size;
            }
            int recordEnd = (int) (pos + recordLength - 1);
            int equals = space + 1;
            while (equals < recordEnd && body[equals] != '=') {
                equals++;
            }
            String key = new String(body, space + 1, equals - space - 1, StandardCharsets.UTF_8);
            if (key.equals("size") && equals < recordEnd) {
                String value = new String(body, equals + 1, recordEnd - equals - 1, StandardCharsets.US_ASCII);
                try {
                    long parsed = Long.parseLong(value);
                    size = parsed >= 0 ? OptionalLong.of(parsed) : OptionalLong.empty();
                } catch (NumberFormatException e) {
                    size = OptionalLong.empty();
                }
            }
            pos += (int) recordLength;
        }
        return size;
    }
}
