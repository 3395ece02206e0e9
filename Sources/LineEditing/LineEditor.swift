import CEditLine
